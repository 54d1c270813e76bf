import { afterEach, describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { ApiClient } from '../../../../main/api/client';
import type { CapturedFrame } from '../../../../main/api/event-socket';
import { openSpeechStream, type SpeechChunk, type SpeechEnd, type SpeechEvent } from '../../../../main/api/tts-stream';
import { startWsServer } from './ws-server';

const KEY = 'sk-tts-stream-key-42';

/** Audio the fake service "synthesises" for a text: one byte per character, in 4 chunks (at least 4 bytes each). */
function audioFor(text: string): Buffer[] {
  const bytes = Buffer.from(text, 'utf8');
  const out: Buffer[] = [];
  const size = Math.max(4, Math.ceil(bytes.length / 4));
  for (let i = 0; i < bytes.length; i += size) out.push(bytes.subarray(i, i + size));
  return out;
}

type Mode = 'ok' | 'error' | 'close' | 'invalid' | 'oversize';

/** A fake /v1/tts: gathers text.delta until text.done, then answers per `mode`. */
function ttsService(mode: Mode, texts: string[][]) {
  return (ws: WebSocket): void => {
    let pending: string[] = [];
    ws.on('message', (data) => {
      const m = JSON.parse(String(data)) as { type: string; delta?: string };
      if (m.type === 'text.delta') return void pending.push(m.delta!);
      if (m.type !== 'text.done') return;
      texts.push(pending);
      const chunks = audioFor(pending.join(''));
      pending = [];
      ws.send(JSON.stringify({ type: 'audio.delta', delta: chunks[0]!.toString('base64'), audio_timestamps: { graph_chars: ['x'], graph_times: [[0, 0.1]] }, audio_duration: 0.1 }));
      if (mode === 'invalid') ws.send(JSON.stringify({ type: 'audio.delta', delta: 17 }));
      if (mode === 'error') return void ws.send(JSON.stringify({ type: 'error', message: 'Voice synthesis failed.' }));
      if (mode === 'close') return void ws.close(1011, 'synth crashed');
      // One audio.delta over the 16 MiB the workbench reads in one message (ws's own default is 100 MiB).
      if (mode === 'oversize') return void ws.send(JSON.stringify({ type: 'audio.delta', delta: Buffer.alloc(13 * 1024 * 1024).toString('base64') }));
      for (const c of chunks.slice(1)) ws.send(JSON.stringify({ type: 'audio.delta', delta: c.toString('base64') }));
      ws.send(JSON.stringify({ type: 'audio.done', trace_id: 'tr-1' }));
    });
  };
}

async function collect(events: AsyncIterable<SpeechEvent>, stopAfter = Infinity): Promise<{ chunks: SpeechChunk[]; end: SpeechEnd | null }> {
  const chunks: SpeechChunk[] = [];
  for await (const e of events) {
    if (e.kind === 'end') return { chunks, end: e };
    chunks.push(e);
    if (chunks.length >= stopAfter) break;
  }
  return { chunks, end: null };
}

describe('api/tts WebSocket loop', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  async function stream(mode: Mode) {
    const texts: string[][] = [];
    const srv = await startWsServer(ttsService(mode, texts));
    const client = new ApiClient({ baseUrl: srv.baseUrl, apiKey: KEY });
    const frames: CapturedFrame[] = [];
    cleanups.push(() => srv.close(), () => client.dispose());
    const opened = await openSpeechStream(client, { language: 'en', voice: 'ara', codec: 'pcm', sample_rate: 16000, with_timestamps: true }, { onFrame: (f) => frames.push(f) });
    if (!opened.ok) throw new Error(opened.error.message);
    cleanups.push(() => void opened.stream.socket.terminate());
    return { s: opened.stream, texts, srv, frames };
  }

  it('sends text deltas then text.done, yields the audio chunks with timestamps, then the end; twice on one connection', async () => {
    const { s, texts, srv, frames } = await stream('ok');
    expect(srv.upgrades[0]!.url).toBe('/v1/tts?language=en&voice=ara&codec=pcm&sample_rate=16000&with_timestamps=true');
    const first = await collect(s.speak(['Hello, ', 'world.']));
    expect(texts[0]).toEqual(['Hello, ', 'world.']);
    expect(Buffer.concat(first.chunks.map((c) => c.audio)).toString()).toBe('Hello, world.');
    expect(first.chunks[0]).toMatchObject({ index: 0, timestamps: { graph_chars: ['x'] }, duration: 0.1 });
    expect(first.end).toMatchObject({ ok: true, error: null, traceId: 'tr-1', chunks: 4, bytes: 13, problems: [] });
    // Order of the timing marks (values are the machine's; only their order is asserted).
    const t = first.end!.timing;
    expect(t.firstDeltaAt! <= t.textDoneAt! && t.textDoneAt! <= t.firstAudioAt! && t.firstAudioAt! <= t.endAt).toBe(true);
    expect(first.chunks[0]!.at).toBe(t.firstAudioAt);

    async function* slowly(): AsyncGenerator<string> {
      yield 'Second ';
      await new Promise((r) => setTimeout(r, 5));
      yield 'one';
    }
    const second = await collect(s.speak(slowly()));
    expect(Buffer.concat(second.chunks.map((c) => c.audio)).toString()).toBe('Second one');
    expect(second.end?.ok).toBe(true);
    expect(frames.filter((f) => f.direction === 'out').map((f) => f.kind === 'json' && f.type)).toEqual(['text.delta', 'text.delta', 'text.done', 'text.delta', 'text.delta', 'text.done']);
    const audioFrame = frames.find((f) => f.direction === 'in' && f.kind === 'json' && f.type === 'audio.delta');
    expect(audioFrame).toMatchObject({ data: { delta: { $audio: { bytes: 4, durationMs: 0.1 } } } });
  });

  it('splits a piece over 60,000 characters into several deltas', async () => {
    const { s, texts } = await stream('ok');
    const long = 'ab'.repeat(35_000);
    const out = await collect(s.speak(long));
    expect(texts[0]!.map((t) => t.length)).toEqual([60_000, 10_000]);
    expect(out.end?.bytes).toBe(70_000);
  });

  it('a service error ends the utterance with its message, the audio before kept', async () => {
    const { s } = await stream('error');
    const out = await collect(s.speak('Hello there'));
    expect(out.chunks).toHaveLength(1);
    expect(out.end).toMatchObject({ ok: false, error: { kind: 'http', message: 'The service could not synthesise the speech: Voice synthesis failed. The 1 audio chunk received before are kept.' } });
  });

  it('a close mid-utterance ends it with the close code explained', async () => {
    const { s } = await stream('close');
    const out = await collect(s.speak('Hello there'));
    expect(out.chunks).toHaveLength(1);
    expect(out.end).toMatchObject({ ok: false, error: { kind: 'http', code: 'ws_1011' } });
    expect(out.end!.error!.message).toMatch(/internal error and closed the connection \(1011\)\. The service said: "synth crashed"\..*The connection closed before the speech was complete \(after 1 audio chunk\); the audio received is kept\.$/);
  });

  it('a message over the frame limit ends the utterance saying so, the audio before kept', async () => {
    const { s } = await stream('oversize');
    const out = await collect(s.speak('Hello there'));
    expect(out.chunks).toHaveLength(1);
    expect(out.end).toMatchObject({ ok: false, error: { code: 'ws_1009' } });
    expect(out.end!.error!.message).toMatch(/^127\.0\.0\.1:\d+ sent a WebSocket message larger than 16 MiB, the most the workbench accepts in one message, so the connection was closed\..*the audio received is kept\.$/);
  });

  it('an invalid message is reported as a problem and the utterance goes on', async () => {
    const { s } = await stream('invalid');
    const out = await collect(s.speak('Hello'));
    expect(out.end).toMatchObject({ ok: true, chunks: 2 });
    expect(out.end!.problems).toHaveLength(1);
    expect(out.end!.problems[0]!.message).toMatch(/does not understand \(audio\.delta: delta: /);
  });

  it('an utterance abandoned mid-way does not leak its audio into the next', async () => {
    const { s } = await stream('ok');
    const partial = await collect(s.speak('abcdefghijkl'), 1);
    expect(partial.chunks).toHaveLength(1);
    const next = await collect(s.speak('XYZ'));
    expect(Buffer.concat(next.chunks.map((c) => c.audio)).toString()).toBe('XYZ');
  });

  it('refuses a query that breaks a documented rule before connecting', async () => {
    const srv = await startWsServer(() => undefined);
    const client = new ApiClient({ baseUrl: srv.baseUrl, apiKey: KEY });
    cleanups.push(() => srv.close(), () => client.dispose());
    const r = await openSpeechStream(client, { language: 'en', speed: 2 });
    expect(r).toMatchObject({ ok: false, error: { kind: 'invalid_request', message: 'speed must be from 0.7 to 1.5 (got 2).' } });
    expect(srv.upgrades).toHaveLength(0);
  });
});
