/**
 * The realtime family's own operations. A call itself is a live session of kind `realtime`
 * (shared/realtime-call, `live.start` / `live.attach`); this holds only what the call console
 * needs from main beyond it.
 */
export const realtimeContract = {};
