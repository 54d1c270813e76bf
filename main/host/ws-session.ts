/**
 * One browser tab's WebSocket as a host session: decodes client messages (text, or binary frames
 * for messages that carry bytes), runs them on the host, and sends replies, chunks, ends and
 * events back, as binary frames whenever they carry a Uint8Array. Chunk delivery follows the
 * socket's back-pressure: while `bufferedAmount` is above SOCKET_HIGH_WATER_BYTES, `sendChunk`
 * answers a promise that settles once it drained (checked each time a write reaches the kernel),
 * so a session handler awaiting `emit` waits instead of piling data up in main. Closing the socket
 * detaches the session, which aborts what it was running.
 */
import { WebSocket } from 'ws';
import { encodeBinaryFrame, hasBytes } from '../../shared/contract/binary-frame';
import { SOCKET_HIGH_WATER_BYTES, type CallReply, type ServerMessage } from '../../shared/contract/protocol';
import type { HostPort, HostSession } from './host';
import { parseClientMessage } from './ws-messages';

export interface SocketSessionOptions {
  id: string;
  log: (line: string) => void;
  /** Back-pressure threshold; defaults to SOCKET_HIGH_WATER_BYTES. */
  highWaterBytes?: number;
}

const UNSENDABLE: CallReply = {
  ok: false,
  error: { code: 'internal', message: 'The workbench produced a value it could not send to this page.' },
};

/** A received frame: text as a string, binary as one plain Uint8Array (ws hands out Buffers). */
function frameData(data: WebSocket.RawData, isBinary: boolean): string | Uint8Array {
  const buffer = Array.isArray(data) ? Buffer.concat(data) : Buffer.isBuffer(data) ? data : Buffer.from(data);
  return isBinary ? new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength) : buffer.toString('utf8');
}

/** Wires `socket` to `host` until the socket closes; returns a function that detaches early. */
export function attachSocket(host: HostPort, socket: WebSocket, options: SocketSessionOptions): () => void {
  const { log } = options;
  const highWater = options.highWaterBytes ?? SOCKET_HIGH_WATER_BYTES;
  const drainWaiters: Array<() => void> = [];

  function wakeIfDrained(): void {
    if (socket.readyState === WebSocket.OPEN && socket.bufferedAmount > highWater) return;
    for (const wake of drainWaiters.splice(0)) wake();
  }

  function send(message: ServerMessage): boolean {
    if (socket.readyState !== WebSocket.OPEN) return false;
    let data: string | Uint8Array;
    try {
      data = hasBytes(message) ? encodeBinaryFrame(message) : JSON.stringify(message);
    } catch (err) {
      log(`[ws] ${options.id}: could not encode a ${message.t} message: ${err instanceof Error ? err.message : String(err)}`);
      return false;
    }
    socket.send(data, { binary: typeof data !== 'string' }, wakeIfDrained);
    return true;
  }

  const session: HostSession = {
    id: options.id,
    sendChunk(streamId, chunk) {
      send({ t: 'chunk', streamId, chunk });
      if (socket.readyState !== WebSocket.OPEN || socket.bufferedAmount <= highWater) return;
      return new Promise<void>((resolve) => drainWaiters.push(resolve));
    },
    sendEvent: (channel, payload, key) => void send(key === undefined ? { t: 'event', channel, payload } : { t: 'event', channel, payload, key }),
  };
  const detach = host.attach(session);

  socket.on('message', (data, isBinary) => {
    const parsed = parseClientMessage(frameData(data, isBinary));
    if (!parsed.ok) {
      const reply: CallReply = { ok: false, error: parsed.error };
      if (parsed.streamId !== null) send({ t: 'end', streamId: parsed.streamId, reply });
      send({ t: 'reply', id: parsed.id ?? -1, reply });
      return;
    }
    const msg = parsed.message;
    if (msg.t === 'call') {
      void host.call(session, msg.method, msg.input, msg.opId).then((reply) => {
        if (!send({ t: 'reply', id: msg.id, reply })) send({ t: 'reply', id: msg.id, reply: UNSENDABLE });
      });
    } else {
      void host.stream(session, msg.method, msg.input, msg.streamId).then((reply) => {
        if (!send({ t: 'end', streamId: msg.streamId, reply })) send({ t: 'end', streamId: msg.streamId, reply: UNSENDABLE });
      });
    }
  });
  socket.on('close', () => {
    detach();
    wakeIfDrained();
  });
  socket.on('error', (err) => log(`[ws] ${options.id}: ${err.message}`));
  return detach;
}
