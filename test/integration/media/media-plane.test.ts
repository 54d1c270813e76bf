/**
 * The media process as browser mode starts it (a forked child): its control protocol (errors as
 * values), its frame channel's guards, and a crash reported and recovered from.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { nextEvent, PAGE_ORIGIN, startPlane } from './harness';
import type { MediaChannelInfo } from '../../../shared/contract/media';

/** The status of a WebSocket upgrade attempt (101 when it opened). */
function upgradeStatus(url: string, options: { protocols?: string[]; origin?: string; host?: string }): Promise<number> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, options.protocols ?? [], { origin: options.origin, headers: options.host ? { Host: options.host } : {} });
    ws.on('open', () => {
      ws.close();
      resolve(101);
    });
    ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    ws.on('error', () => {});
  });
}

describe('media plane (forked media process)', () => {
  const { plane, events, lines } = startPlane({ restart: { initialDelayMs: 50 } });
  let channel: Extract<MediaChannelInfo, { transport: 'websocket' }>;

  beforeAll(async () => {
    expect(await plane.start()).toEqual({ ok: true, value: null });
    const reply = await plane.channel();
    if (!reply.ok || reply.value.transport !== 'websocket') throw new Error(JSON.stringify(reply));
    channel = reply.value;
  });
  afterAll(() => plane.dispose());

  it('answers the page with its own loopback WebSocket and token', () => {
    expect(channel.url).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/media$/);
    expect(channel.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('unmasks page frames word-wise (ws-mask installed before ws loads) and refuses compression', async () => {
    for (let i = 0; i < 200 && !lines.some((l) => l.startsWith('[media-ws] frames unmasked')); i++) await new Promise((r) => setTimeout(r, 25));
    expect(lines.filter((l) => l.startsWith('[media-ws] frames unmasked'))).toEqual(['[media-ws] frames unmasked word-wise']);
    // ws's client offers permessage-deflate by default: the frame server declines it.
    const ws = new WebSocket(channel.url, ['workbench', `token.${channel.token}`], { origin: PAGE_ORIGIN });
    await new Promise((r) => ws.once('open', r));
    expect(ws.extensions).toBe('');
    ws.close();
  });

  it('opens the channel only for the right Origin, Host and token', async () => {
    const good = { protocols: ['workbench', `token.${channel.token}`], origin: PAGE_ORIGIN };
    expect(await upgradeStatus(channel.url, good)).toBe(101);
    expect(await upgradeStatus(channel.url, { ...good, origin: 'http://evil.example' })).toBe(403);
    expect(await upgradeStatus(channel.url, { ...good, protocols: ['workbench', 'token.wrong'] })).toBe(401);
    expect(await upgradeStatus(channel.url, { ...good, protocols: ['workbench'] })).toBe(401);
    expect(await upgradeStatus(channel.url, { ...good, host: 'attacker.example:80' })).toBe(403);
  });

  it('answers a bad start with an error value naming what is wrong', async () => {
    expect(await plane.startSession('s-unknown', 'no-such-kind', {})).toMatchObject({ ok: false, error: { code: 'invalid_input', message: expect.stringContaining('no-such-kind') } });
    expect(await plane.startSession('s-bad', 'synthetic', { intervalMs: 0 })).toMatchObject({ ok: false, error: { code: 'invalid_input', message: expect.stringContaining('intervalMs') } });
    const started = await plane.startSession('s-twice', 'synthetic', { frames: 0 });
    expect(started).toMatchObject({ ok: true, value: { sessionId: 's-twice', kind: 'synthetic', streams: { out: expect.any(Number), in: expect.any(Number) } } });
    expect(await plane.startSession('s-twice', 'synthetic', {})).toMatchObject({ ok: false, error: { code: 'conflict' } });
    expect(await plane.stopSession('s-twice')).toEqual({ ok: true, value: null });
    const stats = await nextEvent(plane, events, (e) => e.type === 'session-event' && e.sessionId === 's-twice' && e.event === 'stats');
    expect(stats).toMatchObject({ data: { sent: 0 } });
  });

  it('agrees on a clock with main (NTP-style, min-RTT sample)', async () => {
    const estimate = await plane.syncClock(5);
    expect(estimate).toMatchObject({ samples: 5 });
    expect(estimate!.rtt).toBeGreaterThanOrEqual(0);
  });

  it('reports a crash, ends its sessions with a reason, and comes back with a new channel', async () => {
    const started = await plane.startSession('s-crash', 'synthetic', { frames: 0 });
    expect(started.ok).toBe(true);
    const pid = plane.pid;
    expect(pid).toBeGreaterThan(0);
    process.kill(pid!, 'SIGKILL');
    expect(await nextEvent(plane, events, (e) => e.type === 'crashed')).toMatchObject({ signal: 'SIGKILL', restarting: true });
    expect(await nextEvent(plane, events, (e) => e.type === 'session-ended' && e.sessionId === 's-crash')).toMatchObject({
      error: { code: 'internal', message: expect.stringContaining('stopped unexpectedly') },
    });
    const again = await plane.channel();
    expect(again.ok).toBe(true);
    expect(events.some((e) => e.type === 'restarted')).toBe(true);
    expect(plane.pid).not.toBe(pid);
    // The restarted process runs sessions again.
    expect((await plane.startSession('s-after', 'synthetic', { frames: 0 })).ok).toBe(true);
    await plane.stopSession('s-after');
  });
});
