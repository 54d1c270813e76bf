/**
 * One browser tab's WebSocket as a host session: decodes client messages, runs them on the
 * host, and sends replies, stream chunks, stream ends and events back. Closing the socket
 * detaches the session, which cancels its streams.
 */
import { WebSocket } from 'ws';
import type { CallReply, ServerMessage } from '../../shared/contract/protocol';
import type { Host, HostSession } from './host';
import { parseClientMessage } from './ws-messages';

export interface SocketSessionOptions {
  id: string;
  log: (line: string) => void;
}

const UNSENDABLE: CallReply = {
  ok: false,
  error: { code: 'internal', message: 'The workbench produced a value it could not send to this page.' },
};

/** Wires `socket` to `host` until the socket closes; returns a function that detaches early. */
export function attachSocket(host: Host, socket: WebSocket, options: SocketSessionOptions): () => void {
  const { log } = options;

  function send(message: ServerMessage): boolean {
    if (socket.readyState !== WebSocket.OPEN) return false;
    let text: string;
    try {
      text = JSON.stringify(message);
    } catch (err) {
      log(`[ws] ${options.id}: could not encode a ${message.t} message: ${err instanceof Error ? err.message : String(err)}`);
      return false;
    }
    socket.send(text);
    return true;
  }

  const session: HostSession = {
    id: options.id,
    sendChunk: (streamId, chunk) => void send({ t: 'chunk', streamId, chunk }),
    sendEvent: (channel, payload) => void send({ t: 'event', channel, payload }),
  };
  const detach = host.attach(session);

  socket.on('message', (data, isBinary) => {
    if (isBinary) {
      send({ t: 'reply', id: -1, reply: { ok: false, error: { code: 'invalid_input', message: 'Binary messages are not accepted.' } } });
      return;
    }
    const parsed = parseClientMessage(data.toString());
    if (!parsed.ok) {
      const reply: CallReply = { ok: false, error: parsed.error };
      if (parsed.streamId !== null) send({ t: 'end', streamId: parsed.streamId, reply });
      send({ t: 'reply', id: parsed.id ?? -1, reply });
      return;
    }
    const msg = parsed.message;
    if (msg.t === 'call') {
      void host.call(session, msg.method, msg.input).then((reply) => {
        if (!send({ t: 'reply', id: msg.id, reply })) send({ t: 'reply', id: msg.id, reply: UNSENDABLE });
      });
    } else {
      void host.stream(session, msg.method, msg.input, msg.streamId).then((reply) => {
        if (!send({ t: 'end', streamId: msg.streamId, reply })) send({ t: 'end', streamId: msg.streamId, reply: UNSENDABLE });
      });
    }
  });
  socket.on('close', detach);
  socket.on('error', (err) => log(`[ws] ${options.id}: ${err.message}`));
  return detach;
}
