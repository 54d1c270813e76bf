// The gate that keeps the page's sockets apart from those without the token, on fake sockets and
// a fake clock: who is closed to make room, who is refused, and who is closed for idling.
import { EventEmitter } from 'node:events';
import type { Socket } from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SocketGate } from '../../../../main/host/socket-gate';

class FakeSocket extends EventEmitter {
  destroyed = false;
  bytesRead = 0;
  bytesWritten = 0;
  remoteAddress = '127.0.0.1';
  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    queueMicrotask(() => this.emit('close'));
  }
}

const LIMITS = { unauthenticated: 3, idleMs: 1_000, authenticatedPerClient: 2 };
let gate: SocketGate;
const logs: string[] = [];

function connect(): FakeSocket & Socket {
  const socket = new FakeSocket() as FakeSocket & Socket;
  gate.admit(socket);
  return socket;
}

beforeEach(() => {
  vi.useFakeTimers();
  gate = new SocketGate(LIMITS, (line) => logs.push(line));
});

afterEach(() => {
  gate.dispose();
  vi.useRealTimers();
});

describe('SocketGate', () => {
  it('closes the oldest idle socket without the token to admit a new one, skipping busy ones', () => {
    const [a, b, c] = [connect(), connect(), connect()];
    gate.requestStarted(a);
    const d = connect();
    // a has a request in flight, so b (the oldest idle one) made room.
    expect([a.destroyed, b.destroyed, c.destroyed, d.destroyed]).toEqual([false, true, false, false]);
    expect(gate.unauthenticatedOpen).toBe(3);
  });

  it('when every one without the token has a request in flight, closes the one stalled longest and lets the new one in', () => {
    const [a, b, c] = [connect(), connect(), connect()];
    for (const socket of [a, b, c]) gate.requestStarted(socket);
    vi.advanceTimersByTime(250);
    // b's answer is being read; a and c have moved nothing since, c for longer than a.
    gate.requestStarted(a);
    gate.requestEnded(a);
    b.bytesWritten += 65_536;
    const late = connect();
    expect([a.destroyed, b.destroyed, c.destroyed, late.destroyed]).toEqual([false, false, true, false]);
    expect(logs.some((line) => line.includes('3 connections without the token all had a request in flight'))).toBe(true);
  });

  it('never counts the page’s sockets against that cap', () => {
    const page = [connect(), connect()];
    for (const socket of page) expect(gate.authenticate(socket)).toBe(true);
    const others = [connect(), connect(), connect(), connect()];
    expect(page.every((s) => !s.destroyed)).toBe(true);
    expect(others.filter((s) => !s.destroyed)).toHaveLength(3);
    // The page's own limit is separate: a third socket with the token is refused, and stays as it was.
    expect(gate.authenticate(others[3])).toBe(false);
  });

  it('frees an authenticated slot when its socket closes', async () => {
    const [a, b, c] = [connect(), connect(), connect()];
    expect(gate.authenticate(a) && gate.authenticate(b)).toBe(true);
    expect(gate.authenticate(c)).toBe(false);
    a.destroy();
    await Promise.resolve();
    expect(gate.authenticate(c)).toBe(true);
  });

  it('closes a socket without the token that idles, trickles headers, or stalls mid-answer; the page’s stay', () => {
    const silent = connect();
    const trickling = connect();
    const stalled = connect();
    const answering = connect();
    const page = connect();
    gate.authenticate(page);
    gate.requestStarted(stalled);
    gate.requestStarted(answering);
    for (let t = 0; t < 8; t++) {
      trickling.bytesRead += 10; // header bytes, never a whole request
      answering.bytesWritten += 65_536;
      vi.advanceTimersByTime(250);
    }
    expect([silent.destroyed, trickling.destroyed, stalled.destroyed]).toEqual([true, true, true]);
    expect([answering.destroyed, page.destroyed]).toEqual([false, false]);
  });

  it('restarts the idle clock when a request is answered (a kept-alive socket)', () => {
    const socket = connect();
    vi.advanceTimersByTime(750);
    gate.requestStarted(socket);
    gate.requestEnded(socket);
    vi.advanceTimersByTime(750);
    expect(socket.destroyed).toBe(false);
    vi.advanceTimersByTime(500);
    expect(socket.destroyed).toBe(true);
  });
});
