/**
 * The Speech family through the app's own handlers against the embedded sandbox (real eSpeak NG
 * audio): REST with timestamps, the WebSocket stream's chunks, each run in History with its audio
 * in the gallery, and the errors a person meets (an unknown voice, text over the limit).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SpeechFieldsSchema, type SpeechRunChunk } from '../../../shared/families/speech/contract';
import { parseWav } from '../../../shared/audio/wav';
import { useHarness } from '../services/harness';

describe('speech through the app against the sandbox', () => {
  const h = useHarness();
  const call = { sessionId: 'test', signal: new AbortController().signal };
  const run = (op: 'synthesize' | 'stream', fields: Record<string, unknown>, chunks: SpeechRunChunk[] = []) =>
    h.app.handlers.speech[op](SpeechFieldsSchema.parse(fields), { ...call, streamId: `s${Math.random()}`, emit: (c) => chunks.push(c) });
  const readMedia = async (hash: string) => new Uint8Array(readFileSync(h.app.media.blobs.pathOf(hash)));

  it('synthesises over REST: the JSON answer, its audio kept in the gallery as a WAV the page plays by URL, the run in History', async () => {
    const chunks: SpeechRunChunk[] = [];
    const text = 'Hello there, general workbench.';
    const result = await run('synthesize', { text, voice: 'ara', codec: 'wav', sampleRate: 16000 }, chunks);
    expect(chunks[0]).toEqual({ type: 'started', runId: result.runId });
    expect(result).toMatchObject({ form: 'json', codec: 'wav', partial: null, costTicks: null });
    expect(result.audio).toMatchObject({ kind: 'audio', mime: 'audio/wav', runId: result.runId, url: { url: expect.stringMatching(/^\/media\/[0-9a-f]{64}\?t=/) } });
    const stored = await h.app.media.lookup.find(result.audio!.hash);
    expect(stored?.size).toBe(result.audio!.bytes);
    // Timestamps cover the text (spaces included or not, every letter is there) and rise.
    const ts = result.timestamps!;
    expect(ts.graph_chars.join('').replace(/\s/g, '')).toBe(text.replace(/\s/g, ''));
    const starts = ts.graph_times.map((t) => t[0]!);
    expect(starts).toEqual([...starts].sort((a, b) => a - b));
    expect(starts.at(-1)!).toBeGreaterThan(starts[0]!);

    const record = await h.app.handlers.history.get({ id: result.runId }, call);
    expect(record).toMatchObject({ endpoint: 'speech.synthesize', status: 'completed', model: 'ara', costTicks: null });
    expect(record.request).toMatchObject({ method: 'POST', url: expect.stringMatching(/\/v1\/tts$/) });
    expect((record.response?.body as { audio: string }).audio).toMatch(/bytes of audio: gallery item gal_/);
    expect(record.output).toMatchObject({ object: 'speech.run', galleryId: result.audio!.id, result: { timestamps: { graph_chars: ts.graph_chars } } });
    const again = await h.app.handlers.speech.ofRun({ runId: result.runId }, call);
    expect(again).toMatchObject({ runId: result.runId, audio: { id: result.audio!.id }, timestamps: ts });
  });

  it('keeps headerless µ-law as a playable WAV of the same length', async () => {
    const result = await run('synthesize', { text: 'One two three.', codec: 'mulaw', sampleRate: 8000, withTimestamps: false });
    expect(result.audio?.mime).toBe('audio/wav');
    const bytes = await readMedia(result.audio!.hash);
    const wav = parseWav(bytes);
    expect(wav.ok && wav.value.sampleRate).toBe(8000);
    // One byte per µ-law sample in, one 16-bit sample out: the duration is the service's.
    expect(wav.ok && Math.abs(wav.value.samples.length / 8000 - result.duration!)).toBeLessThan(0.01);
  });

  it('streams over the WebSocket: chunks in order as bytes, time to first audio, the whole utterance kept, frames both ways recorded', async () => {
    const chunks: SpeechRunChunk[] = [];
    const text = 'Streaming speech arrives in pieces. Here is a second sentence, and a third one after it.';
    const result = await run('stream', { text, codec: 'pcm', sampleRate: 16000, voice: 'rex' }, chunks);
    const audio = chunks.filter((c) => c.type === 'audio');
    expect(audio.length).toBeGreaterThan(1);
    expect(audio.map((c) => c.index)).toEqual(audio.map((_, i) => i));
    for (const c of audio) expect(c.audio).toBeInstanceOf(Uint8Array);
    const first = chunks.findIndex((c) => c.type === 'first-audio');
    expect(first).toBeGreaterThan(0);
    expect(chunks.findIndex((c) => c.type === 'audio')).toBeGreaterThan(first);
    expect(chunks[first]).toMatchObject({ from: 'text.done' });
    expect(result).toMatchObject({ form: 'stream', partial: null, timings: { firstAudioMs: (chunks[first] as { ms: number }).ms } });
    // The kept WAV holds exactly the PCM that streamed.
    const pcmBytes = audio.reduce((n, c) => n + c.audio.byteLength, 0);
    const wav = parseWav(await readMedia(result.audio!.hash));
    expect(wav.ok && wav.value.samples.length * 2).toBe(pcmBytes);
    // Joined timestamps cover the text across chunks, never going back.
    const ts = result.timestamps!;
    expect(ts.graph_chars.join('').replace(/\s/g, '')).toBe(text.replace(/\s/g, ''));
    const starts = ts.graph_times.map((t) => t[0]!);
    expect(starts).toEqual([...starts].sort((a, b) => a - b));

    const record = await h.app.handlers.history.get({ id: result.runId }, call);
    expect(record).toMatchObject({ endpoint: 'speech.stream', status: 'completed', model: 'rex' });
    expect(record.request.url).toMatch(/^ws:.*\/v1\/tts\?.*voice=rex/);
    const events = (await h.app.handlers.history.events({ id: result.runId, offset: 0, limit: 500 }, call)).events;
    const out = events.filter((e) => e.direction === 'out').map((e) => e.event);
    expect(out[0]).toBe('text.delta');
    expect(out.at(-1)).toBe('text.done');
    const deltas = events.filter((e) => e.direction === 'in' && e.event === 'audio.delta');
    expect(deltas.length).toBe(audio.length);
    // Audio is summarised in the record, never dumped.
    expect(deltas[0]!.data).toContain('$audio');
    expect(events.at(-1)).toMatchObject({ direction: 'in', event: 'audio.done' });
  });

  it('explains an unknown voice and records the run failed, over REST and over the stream', async () => {
    const rest = await run('synthesize', { text: 'Hi.', voice: 'nobody-here' }).catch((e: unknown) => e);
    expect(rest).toMatchObject({ error: { message: expect.stringMatching(/no voice "nobody-here".*built-in voice \(eve, ara, leo, rex, sal\)/) } });
    const chunks: SpeechRunChunk[] = [];
    const streamed = await run('stream', { text: 'Hi.', voice: 'nobody-here' }, chunks).catch((e: unknown) => e);
    expect(streamed).toMatchObject({ error: { message: expect.stringMatching(/nobody-here/) } });
    const runId = (chunks[0] as { runId: string }).runId;
    expect(await h.app.handlers.history.get({ id: runId }, call)).toMatchObject({ endpoint: 'speech.stream', status: 'error' });
  });

  it('refuses text over 60,000 characters before anything is sent', () => {
    const parsed = SpeechFieldsSchema.safeParse({ text: 'a'.repeat(60_001) });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toMatch(/over 60,000 characters/);
    expect(SpeechFieldsSchema.safeParse({ text: 'hi', codec: 'wav', bitRate: 64000 }).error?.issues[0]?.message).toMatch(/bit_rate applies to mp3 only/);
    expect(SpeechFieldsSchema.safeParse({ text: 'hi', speed: 1.6 }).success).toBe(false);
  });

  it('lists built-in and custom voices', async () => {
    const { voices, customError } = await h.app.handlers.speech.voices({}, call);
    expect(customError).toBeNull();
    expect(voices.filter((v) => v.kind === 'built-in').map((v) => v.id).sort()).toEqual(['ara', 'eve', 'leo', 'rex', 'sal']);
  });
});
