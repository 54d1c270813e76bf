/**
 * Reads the client's side of a WebSocket as it crosses a TCP proxy (startSocketProxy's tap): the
 * bytes after the handshake, cut into frames (RFC 6455: masked, as every client frame is), with the
 * `type` of each JSON text message. Counts what the app really sent on the wire, appends included,
 * which the app's own event log folds away. No compression: the sandbox's server declines
 * permessage-deflate, so a frame's payload is the message itself.
 */
/** Each text message's `type` (null when it has none), in order, with when it was read (ms). */
export class SentMessages {
  readonly messages: Array<{ type: string | null; at: number }> = [];

  /** How many messages of `type` so far. */
  count(type: string): number {
    return this.messages.filter((m) => m.type === type).length;
  }
}

/** One socket's client side (several sockets, a reconnect's, can share one SentMessages). */
export class ClientFrameReader {
  private buffered = Buffer.alloc(0);

  constructor(private readonly sent: SentMessages) {}

  push(chunk: Buffer): void {
    this.buffered = Buffer.concat([this.buffered, chunk]);
    for (;;) {
      const b = this.buffered;
      if (b.length < 2) return;
      const opcode = b[0]! & 0x0f;
      const masked = (b[1]! & 0x80) !== 0;
      let length = b[1]! & 0x7f;
      let offset = 2;
      if (length === 126) {
        if (b.length < 4) return;
        length = b.readUInt16BE(2);
        offset = 4;
      } else if (length === 127) {
        if (b.length < 10) return;
        length = Number(b.readBigUInt64BE(2));
        offset = 10;
      }
      const mask = masked ? b.subarray(offset, offset + 4) : null;
      if (masked) offset += 4;
      if (b.length < offset + length) return;
      if (opcode === 1) {
        // The type is at the start of the JSON: the first bytes are enough.
        const head = Buffer.from(b.subarray(offset, offset + Math.min(length, 200)));
        if (mask) for (let i = 0; i < head.length; i++) head[i]! ^= mask[i % 4]!;
        this.sent.messages.push({ type: /"type"\s*:\s*"([^"]+)"/.exec(head.toString('utf8'))?.[1] ?? null, at: performance.now() });
      }
      this.buffered = b.subarray(offset + length);
    }
  }
}
