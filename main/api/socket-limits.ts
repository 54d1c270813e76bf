/**
 * The bounds of one service WebSocket (event-socket.ts): what one message may cost, how long a
 * silent peer is trusted, how much may wait to be sent or to be read. main/api/README.md says why
 * each value; tests pass smaller ones.
 */

const MIB = 2 ** 20;

export interface SocketLimits {
  /**
   * Largest message accepted from the service, in bytes (ws `maxPayload`; also the largest the
   * client sends). A bigger one closes the socket (1009) with an error saying so.
   */
  maxFrameBytes: number;
  /** A ping every this many ms while nothing else proves the peer alive; 0 turns keep-alive off. */
  keepAliveIntervalMs: number;
  /** No pong nor any message this long after a ping: the peer is dead and the socket is dropped. */
  keepAliveTimeoutMs: number;
  /** Bytes handed to the socket but not yet written out, above which a send waits for a drain. */
  sendHighWaterBytes: number;
  /** How long a send waits for that drain before it gives up with `slow_consumer` (nothing sent). */
  drainTimeoutMs: number;
  /** Events read but not yet taken by the consumer, above which the socket stops reading. */
  inboundQueueMessages: number;
  inboundQueueBytes: number;
}

export const DEFAULT_SOCKET_LIMITS: SocketLimits = {
  // 2 minutes of 48 kHz 16-bit PCM in one base64 audio.delta (15.4 MB), or a 60,000-character
  // text.delta's audio_timestamps (about 1.1 MB) with a sentence of audio: the largest messages the
  // voice families can legitimately send. ws's default is 100 MiB.
  maxFrameBytes: 16 * MIB,
  keepAliveIntervalMs: 15_000,
  keepAliveTimeoutMs: 10_000,
  // 16 s of 24 kHz PCM sent as base64 JSON, 32 s of 16 kHz PCM as binary: far behind real time
  // already, so the bound only keeps memory flat; a live caller decides what to drop.
  sendHighWaterBytes: 1 * MIB,
  drainTimeoutMs: 5_000,
  inboundQueueMessages: 1024,
  inboundQueueBytes: 2 * 16 * MIB,
};
