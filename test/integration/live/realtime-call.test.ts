/**
 * The `realtime` live kind against the embedded sandbox's /v1/realtime, with a real media process
 * (the socket runs there): text turns, the auto-responder's function-call loop with no window
 * attached, detach/reattach mid-call, a drop said at once and a reconnect seeded from the
 * transcript, and the recording in History. Counts, order and values only, never times.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionRecord, SessionTimelinePage, TimelineItem } from '../../../shared/contract/history';
import type { RunRecord } from '../../../shared/contract/runs';
import { recordedCallInput } from '../../../shared/families/realtime/codegen';
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import WebSocket from 'ws';
import { createMediaChannel, webSocketFramePort } from '../../../renderer/src/bridge/media-channel';
import type { SocketLike } from '../../../renderer/src/bridge/ws-transport';
import { FrameKind } from '../../../shared/media-frames/frame';
import { PAGE_ORIGIN } from '../media/harness';
import { CTX, speechPcm, startRealtimeHarness, type RealtimeHarness } from './harness';
import { attachCall, pollState } from './realtime-harness';

let env: RealtimeHarness;

beforeAll(async () => {
  env = await startRealtimeHarness();
}, 60_000);
afterAll(() => env?.close());

const WEATHER = { name: 'get_weather', description: 'The weather in a city', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } };

describe('realtime call live session (sandbox)', () => {
  it('answers a function call through the auto-responder with no window attached, then speaks the answer using it', async () => {
    const id = await env.startCall({ model: 'svc-voice-latest', tools: [WEATHER], autoReplies: { get_weather: { output: '{"temp":21,"unit":"C"}', latencyMs: 300 } } });
    const win = await attachCall(env.app, id);
    await win.until(() => win.state().status === 'live' && win.state().connection.sessionId !== null, 'connected');
    await win.attachment.control({ type: 'text', text: 'Please call get_weather for Paris.' });
    win.attachment.detach(); // the console closes: the call and its tools go on
    expect(env.app.live.summary(id)?.attachments).toBe(0);

    const done = await pollState(win.attachment.snapshot,  (s) => s.usage.responses >= 2 && s.transcript.some((e) => e.role === 'assistant' && !e.interim && /21/.test(e.text)), 'the answer using the tool output').catch((e) => { console.log(env.logs.slice(-40).join('\n')); throw e; });
    expect(env.app.live.summary(id)?.attachments).toBe(0);
    expect(done.pendingToolCalls).toEqual([]);
    expect(done.usage.responses).toBe(2); // the function call's response and the spoken answer
    expect(done.usage.outputTokens).toBeGreaterThan(0);
    expect(done.turns).toHaveLength(1);
    expect(done.transcript[0]).toMatchObject({ role: 'user', text: 'Please call get_weather for Paris.', source: 'text' });

    // Cost from the usage and the realtime model's record in the sandbox's catalogue: tokens in at
    // the prompt price (cached ones at the cached price), tokens out at the completion price.
    const catalogue = await env.app.handlers.models.catalogue({}, CTX);
    const prices = catalogue.entries.find((e) => e.id === 'svc-voice-latest')?.prices;
    expect(prices?.prompt_text_token_price).toBeGreaterThan(0);
    expect(prices?.completion_text_token_price).toBeGreaterThan(0);
    const u = done.usage;
    expect(u.cachedInputTokens).toBeGreaterThan(0); // the second response read the first's prefix
    const expected = (u.inputTokens - u.cachedInputTokens) * prices!.prompt_text_token_price! + u.cachedInputTokens * prices!.cached_prompt_text_token_price! + u.outputTokens * prices!.completion_text_token_price!;
    expect(done.costTicks).toBe(expected);

    // A window attaching now starts from that state and sees the rest live.
    const again = await attachCall(env.app, id);
    expect(again.state().transcript).toEqual(done.transcript);
    await env.app.live.stop(id);
    await again.until(() => again.ended(), 'the end');
    expect(again.state().status).toBe('ended');

    // History: every message both ways, the tool's output among ours, the transcript as output.
    const run = (await env.app.handlers.history.get({ id: done.runId }, CTX)) as RunRecord;
    expect(run.status).toBe('completed');
    expect(run.costTicks).toBe(done.costTicks); // History's cost column
    expect(run.metrics.costTicks).toBe(done.costTicks);
    // The socket as connected, query included: History's code export reads the model back from it.
    expect(run.request.url).toMatch(/^ws:\/\/[^/]+\/v1\/realtime\?model=svc-voice-latest$/);
    expect(recordedCallInput(run.request)).toMatchObject({ input: { model: 'svc-voice-latest' } });
    expect(run.outputPreview).toMatch(/^User: Please call get_weather for Paris\.\sModel: The get weather tool says: temp 21/);
    expect((run.output as { transcript: unknown[] }).transcript).toEqual(done.transcript);
    const session = (await env.app.handlers.history.session({ id: done.runId }, CTX)) as SessionRecord;
    expect(session.marks.filter((m) => m.type === 'response_done').length).toBe(done.usage.responses);
  }, 120_000);

  it('barge-in with page playback: speech over the answer flushes the page at once and truncates the answer at the ms the page played', async () => {
    const id = await env.startCall({ microphone: { kind: 'page' }, output: { kind: 'page' } });
    const win = await attachCall(env.app, id);
    await win.until(() => win.state().status === 'live' && win.state().streams.playback >= 0, 'connected');
    const { mic, playback } = win.state().streams;
    const info = await env.plane.channel();
    if (!info.ok || info.value.transport !== 'websocket') throw new Error(JSON.stringify(info));
    const { url, token } = info.value;
    const channel = createMediaChannel({ connect: webSocketFramePort(async () => ({ url, token }), (u, p) => new WebSocket(u, p, { origin: PAGE_ORIGIN }) as unknown as SocketLike) });

    // The page's player: plays each item's frames in real time from its first frame, reports its
    // position ~10 times a second, and on a flush frame stops and reports where it stopped.
    const decoder = new TextDecoder();
    let item: { id: string; receivedMs: number; startedAt: number } | null = null;
    let flushedReport: { itemId: string; playedMs: number } | null = null;
    let framesAfterFlush = 0;
    const playedOf = (i: NonNullable<typeof item>): number => Math.min(i.receivedMs, performance.now() - i.startedAt);
    channel.onFrame(playback, (frame) => {
      if (frame.kind === FrameKind.Data) {
        const message = JSON.parse(decoder.decode(frame.payload)) as { item?: string; flush?: string };
        if (message.item) item = { id: message.item, receivedMs: 0, startedAt: performance.now() };
        if (message.flush && item?.id === message.flush) {
          flushedReport = { itemId: item.id, playedMs: Math.round(playedOf(item)) };
          void win.attachment.control({ type: 'played', itemId: item.id, playedMs: flushedReport.playedMs, flushed: true });
          item = null;
        }
        return;
      }
      if (!item) return void (flushedReport && framesAfterFlush++);
      item.receivedMs += frame.payload.byteLength / 2 / 24;
    });
    const reporter = setInterval(() => {
      if (item) void win.attachment.control({ type: 'played', itemId: item.id, playedMs: Math.round(playedOf(item)), flushed: false }).catch(() => undefined);
    }, 100);

    // The microphone in real time: a question, silence until the answer has played a second, then speech over it.
    const question = await speechPcm(['Hello, could you tell me about the weather?'], 24_000, 1500);
    const interruption = await speechPcm(['Stop, wait a moment please.'], 24_000, 1500);
    const frameBytes = 960;
    let source = question;
    let offset = 0;
    const pacer = setInterval(() => {
      let frame = source.subarray(offset, offset + frameBytes);
      offset += frameBytes;
      if (frame.byteLength < frameBytes) frame = Buffer.alloc(frameBytes);
      if (source === question && offset >= question.byteLength && item && playedOf(item) > 1000) {
        source = interruption;
        offset = 0;
      }
      channel.send(mic, FrameKind.Audio, new Uint8Array(frame));
    }, 20);
    try {
      await win.until(() => win.state().turns.some((t) => t.bargedIn && t.truncatedAtMs !== null), 'a barge-in with its truncate', 90_000);
      await win.until(() => win.state().transcript.some((e) => e.status === 'truncated'), 'the truncated answer');
      // Our messages reach the log as the socket captured them, which may be a frame late (a frame is
      // held until the next one of its direction settles a key that could span them).
      await win.until(() => win.events().some((e) => e.type === 'wire' && e.direction === 'out' && e.eventType === 'conversation.item.truncate'), 'the truncate in the log');
    } finally {
      clearInterval(pacer);
      clearInterval(reporter);
    }
    const state = win.state();
    const cut = state.turns.find((t) => t.bargedIn)!;
    // The truncate sent is the position the page reported when it stopped.
    expect(flushedReport).not.toBeNull();
    const truncate = win.events().find((e) => e.type === 'wire' && e.direction === 'out' && e.eventType === 'conversation.item.truncate');
    expect(truncate && truncate.type === 'wire' ? truncate.data : null).toMatchObject({ item_id: flushedReport!.itemId, content_index: 0, audio_end_ms: flushedReport!.playedMs });
    expect(cut.truncatedAtMs).toBe(flushedReport!.playedMs);
    expect(cut.assistantItemId).toBe(flushedReport!.itemId);
    expect(state.transcript.find((e) => e.itemId === flushedReport!.itemId)).toMatchObject({ status: 'truncated', truncatedAtMs: flushedReport!.playedMs });
    // Nothing of the cut answer was played after the flush.
    expect(framesAfterFlush).toBe(0);
    await env.app.live.stop(id);
    channel.close();
    const session = (await env.app.handlers.history.session({ id: state.runId }, CTX)) as SessionRecord;
    expect(session.marks.filter((m) => m.type === 'barge_in').length).toBeGreaterThanOrEqual(1);
    expect(session.marks.find((m) => m.type === 'truncated')?.data).toMatchObject({ playedMs: flushedReport!.playedMs });

    // The model track holds what was heard: of the cut answer, exactly the ms the page played
    // (the sandbox had sent more), recorded no earlier than it arrived.
    const items: TimelineItem[] = [];
    for (let offset = 0; offset < session.timelineTotal; offset += 500) items.push(...((await env.app.handlers.history.timeline({ id: state.runId, offset, limit: 500 }, CTX)) as SessionTimelinePage).items);
    const model = session.tracks.find((t) => t.name === 'model')!;
    const cutAudio = items.flatMap((i) => ('event' in i && i.event.audio && i.event.direction === 'in' && JSON.parse(i.event.data || '{}').item_id === flushedReport!.itemId ? [i.event.audio] : []));
    expect(cutAudio.length).toBeGreaterThan(0);
    expect(cutAudio.reduce((n, a) => n + a.bytes, 0)).toBe(flushedReport!.playedMs * 24 * 2); // 24 kHz PCM16
    const firstAudio = session.marks.find((m) => m.type === 'first_audio' && m.turn === cut.turn)!;
    expect(model.startMs + cutAudio[0]!.offsetMs).toBeGreaterThanOrEqual(firstAudio.t - 1);
    // speech_stopped marks sit where that audio was captured: the service's audio_end_ms on our microphone track.
    const stopped = items.filter((i) => 'event' in i && i.event.direction === 'in' && i.event.kind === 'json' && JSON.parse(i.event.data).type === 'input_audio_buffer.speech_stopped');
    const stoppedMarks = session.marks.filter((m) => m.type === 'speech_stopped');
    expect(stoppedMarks.length).toBe(stopped.length);
    const micTrack = session.tracks.find((t) => t.name === 'microphone')!;
    const micAudio = items.flatMap((i) => ('event' in i && i.event.audio && i.event.direction === 'out' ? [i.event.audio] : []));
    /** Where the sample `ms` into what we sent sits on the session clock, as the microphone track recorded it. */
    const onMicTrack = (ms: number): number => {
      let samples = Math.round(ms * 24);
      for (const a of micAudio) {
        if (samples <= a.bytes / 2) return micTrack.startMs + a.offsetMs + samples / 24;
        samples -= a.bytes / 2;
      }
      throw new Error(`${ms} ms is past the microphone audio recorded`);
    };
    expect(stoppedMarks.length).toBeGreaterThanOrEqual(1); // the question's (the call may end before the interruption's)
    for (const [i, m] of stoppedMarks.entries()) {
      const endMs = (JSON.parse((stopped[i] as { event: { data: string } }).event.data) as { audio_end_ms: number }).audio_end_ms;
      // Within a frame (20 ms) and the media-to-session clock mapping's settling.
      expect(Math.abs(m.t - onMicTrack(endMs))).toBeLessThanOrEqual(25);
      expect(m.data).toMatchObject({ audioEndMs: endMs });
    }
  }, 150_000);

  it('a dropped connection is said at once and the call stays; reconnect seeds the conversation back from the transcript', async () => {
    // A TCP proxy in front of the sandbox: destroying its sockets is the network dropping.
    const proxy = await env.proxy('Through a proxy');
    const drop = proxy.drop;
    try {
      const id = await env.startCall({ connectionId: proxy.profileId });
      const win = await attachCall(env.app, id);
      await win.until(() => win.state().status === 'live', 'connected');
      await win.attachment.control({ type: 'text', text: 'Say The first answer.' });
      await win.until(() => win.state().transcript.some((e) => e.role === 'assistant' && !e.interim && e.text === 'The first answer.') && win.state().usage.responses === 1, 'the first answer');

      drop();
      await win.until(() => win.state().status === 'dropped', 'the drop');
      expect(win.state().lastError?.code).toBe('network');
      expect(env.app.live.summary(id)).toMatchObject({ status: 'running', state: 'dropped' });
      // Nothing can be said while dropped; the console is told why.
      const turns = win.state().turns.length;
      await expect(win.attachment.control({ type: 'text', text: 'Hello?' })).rejects.toThrow(/reconnect first/);
      await expect(win.attachment.control({ type: 'commit' })).rejects.toThrow(/reconnect first/);
      // A refused message starts no turn (none would ever be answered).
      await new Promise((r) => setTimeout(r, 50));
      expect(win.state().turns.length).toBe(turns);

      const before = win.events().length;
      await win.attachment.control({ type: 'reconnect' });
      await win.until(() => win.state().status === 'live' && win.state().connection.attempts === 2, 'reconnected');
      await win.until(() => win.events().slice(before).filter((e) => e.type === 'wire' && e.direction === 'in' && e.eventType === 'conversation.item.added').length === 2, 'the seeded items accepted');
      // Our own messages come as captured frames, which may trail the service's answers to them.
      await win.until(() => win.events().slice(before).filter((e) => e.type === 'wire' && e.direction === 'out' && e.eventType === 'conversation.item.create').length === 2, 'the seeded items captured');
      // The new socket's first items are the conversation so far, in order.
      const seeded = win.events().slice(before).flatMap((e) => (e.type === 'wire' && e.direction === 'out' && e.eventType === 'conversation.item.create' ? [e.data as { item: { role: string; content: Array<{ type: string; text: string }> } }] : []));
      expect(seeded.map((d) => [d.item.role, d.item.content[0].type, d.item.content[0].text])).toEqual([
        ['user', 'input_text', 'Say The first answer.'],
        ['assistant', 'output_text', 'The first answer.'],
      ]);
      // The call goes on on the new socket.
      await win.attachment.control({ type: 'text', text: 'Say The second answer.' });
      await win.until(() => win.state().transcript.some((e) => e.role === 'assistant' && !e.interim && e.text === 'The second answer.'), 'the second answer');
      // The seeded items did not come back as new transcript entries (the service echoes each one it adds).
      expect(win.state().transcript.map((e) => `${e.role}: ${e.text}`)).toEqual(['user: Say The first answer.', 'assistant: The first answer.', 'user: Say The second answer.', 'assistant: The second answer.']);

      // Dropped again and left so: ending it keeps the recording, and History says why.
      drop();
      await win.until(() => win.state().status === 'dropped', 'the second drop');
      await env.app.live.stop(id);
      await win.until(() => win.ended(), 'the end');
      const run = (await env.app.handlers.history.get({ id: win.state().runId }, CTX)) as RunRecord;
      expect(run.status).toBe('error');
      expect(run.error?.message).toMatch(/^The connection dropped: .+ The recording up to then is kept\.$/);
      const session = (await env.app.handlers.history.session({ id: win.state().runId }, CTX)) as SessionRecord;
      expect(session.marks.filter((m) => m.type === 'error').length).toBe(2);
      expect(session.marks.filter((m) => m.type === 'reconnected').length).toBe(1);
    } finally {
      proxy.close();
    }
  }, 150_000);

  it('a kill -9 of the media process mid-call: the drop is said, the recording up to then is kept and History has it', async () => {
    const id = await env.startCall();
    const win = await attachCall(env.app, id);
    await win.until(() => win.state().status === 'live', 'connected');
    await win.attachment.control({ type: 'text', text: 'Say This answer is recorded before the crash.' });
    await win.until(() => win.state().usage.responses === 1, 'the answer');
    await win.attachment.control({ type: 'text', text: 'Say This one is cut by the crash, it goes on for a while so that it is still speaking.' });
    await win.until(() => win.state().turns.length === 2 && win.state().turns[1].marks.first_audio !== null, 'the second answer speaking');

    process.kill(env.plane.pid!, 'SIGKILL');
    await win.until(() => win.state().status === 'dropped', 'the drop');
    expect(win.state().lastError?.message).toMatch(/media process/i);
    // The call is still main's: ending it finalises the recording from what reached the disk.
    await env.app.live.stop(id);
    await win.until(() => win.ended(), 'the end');
    const runId = win.state().runId;
    const run = (await env.app.handlers.history.get({ id: runId }, CTX)) as RunRecord;
    expect(run.status).toBe('error');
    expect(run.outputPreview).toMatch(/^User: Say This answer is recorded before the crash\.\sModel: This answer is recorded before the crash\./);
    const session = (await env.app.handlers.history.session({ id: runId }, CTX)) as SessionRecord;
    const model = session.tracks.find((t) => t.direction === 'in');
    expect(model?.state).toBe('closed');
    expect(model?.media?.url).toMatch(/\/media\//);
    expect(model?.durationMs ?? 0).toBeGreaterThan(1000);
    expect(session.marks.some((m) => m.type === 'error')).toBe(true);
    // The media process comes back, and a new call works.
    await new Promise<void>((r) => {
      const look = () => (env.plane.pid && env.plane.status === 'running' ? r() : setTimeout(look, 50));
      look();
    });
  }, 150_000);

  it('with a minted client secret (its expiry in the snapshot, the secret nowhere in History) and push-to-talk: a manual commit is answered', async () => {
    const id = await env.startCall({ auth: 'client-secret', clientSecretSeconds: 120, turnDetection: null, microphone: { kind: 'page' } });
    const win = await attachCall(env.app, id);
    await win.until(() => win.state().status === 'live', 'connected');
    const expires = win.state().clientSecretExpiresAt!;
    expect(expires - Date.now() / 1000).toBeGreaterThan(60);
    expect(expires - Date.now() / 1000).toBeLessThanOrEqual(121);
    expect(win.state().turnDetection).toBe('manual');

    const info = await env.plane.channel();
    if (!info.ok || info.value.transport !== 'websocket') throw new Error(JSON.stringify(info));
    const { url, token } = info.value;
    const channel = createMediaChannel({ connect: webSocketFramePort(async () => ({ url, token }), (u, p) => new WebSocket(u, p, { origin: PAGE_ORIGIN }) as unknown as SocketLike) });
    const speech = await speechPcm(['Push to talk works.'], 24_000, 200);
    await win.attachment.control({ type: 'clear' }); // the button pressed: appends go out only while held
    for (let at = 0; at + 960 <= speech.byteLength; at += 960) channel.send(win.state().streams.mic, FrameKind.Audio, new Uint8Array(speech.subarray(at, at + 960)));
    // The appends went out before the commit: the buffer holds the whole phrase when it is committed.
    await new Promise((r) => setTimeout(r, 500));
    await win.attachment.control({ type: 'commit' });
    await win.until(() => win.state().usage.responses === 1, 'the answer to the committed turn');
    channel.close();
    await env.app.live.stop(id);
    await win.until(() => win.ended(), 'the end');
    const out = win.events().flatMap((e) => (e.type === 'wire' && e.direction === 'out' ? [e.eventType] : []));
    expect(out.slice(-2)).toEqual(['input_audio_buffer.commit', 'response.create']);
    const answer = win.state().transcript.find((e) => e.role === 'assistant');
    expect(answer?.text).toMatch(/I heard \d+(\.\d+)? seconds of your audio/);
    // The minted secret is a credential: it is in no recorded event or request.
    const session = (await env.app.handlers.history.session({ id: win.state().runId }, CTX)) as SessionRecord;
    expect(session.tracks.find((t) => t.direction === 'out')?.durationMs ?? 0).toBeGreaterThan(500);
    const run = (await env.app.handlers.history.get({ id: win.state().runId }, CTX)) as RunRecord;
    expect(JSON.stringify(run)).not.toMatch(/cs-sandbox-/);
    expect(JSON.stringify(session)).not.toMatch(/cs-sandbox-/);
  }, 150_000);

  it('joins a SIP call by call_id with the key (µ-law 8 kHz), answers the caller, and ends when the far side hangs up', async () => {
    const sandbox = await env.sandbox();
    const base = `http://127.0.0.1:${sandbox.port}`;
    const receiver = createHttpServer((req, res) => req.resume().on('end', () => res.writeHead(204).end()));
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    const post = (path: string, body: unknown) => fetch(`${base}${path}`, { method: 'POST', headers: { authorization: `Bearer ${sandbox.key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    try {
      const number = '+14155550188';
      const registered = await post('/v2/phone-numbers', { origin: 'byo_trunk', name: 'Desk', phone_number: number, webhook: { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/incoming` }, sip_auth: { allowed_addresses: ['127.0.0.0/8'] } });
      expect(registered.status).toBeLessThan(300);
      const placed = await post('/sandbox/calls', { to: number, from: '+14155550100', script: { say: 'Hello, I would like to check my order please.', hangup_after_ms: null } });
      const callId = ((await placed.json()) as { call_id: string }).call_id;

      await expect(env.startCall({ callId, auth: 'client-secret' }, 'main')).rejects.toThrow(/API key only/);
      const id = await env.startCall({ callId }, 'main');
      const win = await attachCall(env.app, id);
      await win.until(() => win.state().status === 'live', 'joined');
      expect(win.state().formats).toEqual({ input: { type: 'audio/pcmu', rate: 8000 }, output: { type: 'audio/pcmu', rate: 8000 } });
      // The caller's speech through the service's VAD is a turn, and the model answers it.
      await win.until(() => win.state().turns.some((t) => t.marks.speech_stopped !== null && t.marks.first_audio !== null), 'the caller answered', 90_000);

      const hung = await post(`/v1/realtime/calls/${callId}/hangup`, {});
      expect(hung.status).toBe(200);
      await win.until(() => win.ended(), 'the end');
      expect(win.state().status).toBe('ended');
      expect(win.state().end?.message).toMatch(/other side/);
      const run = (await env.app.handlers.history.get({ id: win.state().runId }, CTX)) as RunRecord;
      expect(run.status).toBe('completed');
      const session = (await env.app.handlers.history.session({ id: win.state().runId }, CTX)) as SessionRecord;
      expect(session.tracks.find((t) => t.direction === 'in')).toMatchObject({ sampleRate: 8000 });
    } finally {
      receiver.close();
    }
  }, 150_000);

  it('response.cancel stops the answer (cancelled in the transcript); hang-up ends the call from the console', async () => {
    const id = await env.startCall();
    const win = await attachCall(env.app, id);
    await win.until(() => win.state().status === 'live', 'connected');
    await win.attachment.control({ type: 'text', text: 'Say This is a long answer that goes on and on, sentence after sentence, so that there is time to cancel it before it ends.' });
    await win.until(() => win.state().turns[0]?.marks.first_audio !== null && win.state().turns[0] !== undefined, 'the answer speaking');
    await win.attachment.control({ type: 'response.cancel' });
    await win.until(() => win.state().usage.responses === 1, 'the cancelled response done');
    const answer = win.state().transcript.find((e) => e.role === 'assistant');
    expect(answer?.status).toBe('cancelled');
    expect(win.events().some((e) => e.type === 'wire' && e.direction === 'out' && e.eventType === 'response.cancel')).toBe(true);
    await win.attachment.control({ type: 'hang-up' });
    await win.until(() => win.ended(), 'the end');
    expect(win.state().status).toBe('ended');
    expect(env.app.live.list().some((s) => s.id === id)).toBe(false);
  }, 120_000);
});
