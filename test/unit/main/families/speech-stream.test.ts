/**
 * speech.stream when the socket closes mid-utterance: the audio that arrived is kept (in the
 * gallery, whole), the result and the run say it is partial and why; and an utterance that
 * fails before any audio is an error with nothing kept. The api is a fake stream here (the
 * sandbox always finishes); the happy path runs against the sandbox in test/integration/speech.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SecretScrubber } from '../../../../main/api/secret-scrubber';
import type { SpeechEvent } from '../../../../main/api/tts-stream';
import { SpeechService } from '../../../../main/families/speech/speech-service';
import { closeDatabase, openDatabase, type Db } from '../../../../main/store/db';
import { getRun } from '../../../../main/store/runs';
import { SpeechFieldsSchema, type SpeechRunChunk } from '../../../../shared/families/speech/contract';

const closed = { kind: 'stream_incomplete' as const, status: null, code: null, message: 'The connection closed before the speech was complete (after 2 audio chunks); the audio received is kept.', requestId: null };

function service(db: Db, events: SpeechEvent[], kept: Array<{ data: Uint8Array }>): SpeechService {
  const client = {
    scrubber: SecretScrubber.NONE,
    webSocketTarget: (path: string) => ({ url: `ws://x${path}`, headers: {}, captured: { method: 'GET', url: `ws://x${path}`, headers: {}, body: null } }),
    describe: () => ({ method: 'POST', url: 'http://x/v1/tts', headers: {}, body: null }),
  };
  return new SpeechService({
    db,
    connections: { resolve: () => ({ profile: { id: 'c1', name: 'Test' }, client, isSandbox: false }) as never },
    gallery: {
      add: async (input) => (kept.push({ data: input.data as Uint8Array }), { id: 'gal_kept0001', url: { url: '/media/x', expiresAt: null }, duration: null } as never),
      get: async () => null as never,
    },
    api: {
      tts: {} as never,
      voices: {} as never,
      stream: {
        openSpeechStream: async () => ({
          ok: true,
          stream: {
            async *speak() {
              yield* events;
            },
            close: async () => ({ code: 1000, reason: '', error: null }),
          },
        }) as never,
      },
    },
  });
}

const audio = (index: number, bytes: number[]): SpeechEvent => ({ kind: 'audio', index, audio: Buffer.from(bytes), timestamps: null, duration: bytes.length / 2 / 16000, at: 10 + index });
const end = (error: typeof closed | null): SpeechEvent => ({ kind: 'end', ok: error === null, error, traceId: null, chunks: 2, bytes: 8, problems: [], timing: { firstDeltaAt: 1, textDoneAt: 2, firstAudioAt: 10, endAt: 20 } });

describe('speech.stream cut short', () => {
  let db: Db;
  beforeEach(() => {
    db = openDatabase(':memory:');
  });
  afterEach(() => closeDatabase(db));

  it('keeps the audio received before the socket closed and marks the run partial', async () => {
    const kept: Array<{ data: Uint8Array }> = [];
    const chunks: SpeechRunChunk[] = [];
    const s = service(db, [audio(0, [1, 0, 2, 0]), audio(1, [3, 0, 4, 0]), end(closed)], kept);
    const result = await s.stream(SpeechFieldsSchema.parse({ text: 'Cut short.', codec: 'pcm', sampleRate: 16000 }), { signal: new AbortController().signal, emit: (c) => chunks.push(c) });
    expect(chunks.filter((c) => c.type === 'audio').length).toBe(2);
    expect(result.partial?.message).toMatch(/closed before the speech was complete/);
    expect(result.audio?.id).toBe('gal_kept0001');
    // The kept file is a WAV of exactly the four samples that arrived.
    expect(kept).toHaveLength(1);
    expect([...kept[0]!.data.subarray(44)]).toEqual([1, 0, 2, 0, 3, 0, 4, 0]);
    const run = getRun(db, result.runId)!;
    expect(run.status).toBe('incomplete');
    expect(run.error?.message).toMatch(/closed before the speech was complete/);
    expect(run.output).toMatchObject({ object: 'speech.run', galleryId: 'gal_kept0001', result: { partial: { message: expect.any(String) } } });
  });

  it('fails with the reason, keeping nothing, when the socket closes before any audio', async () => {
    const kept: Array<{ data: Uint8Array }> = [];
    const chunks: SpeechRunChunk[] = [];
    const s = service(db, [end(closed)], kept);
    await expect(s.stream(SpeechFieldsSchema.parse({ text: 'Nothing.' }), { signal: new AbortController().signal, emit: (c) => chunks.push(c) })).rejects.toMatchObject({ error: { message: expect.stringMatching(/closed before/) } });
    expect(kept).toHaveLength(0);
    expect(getRun(db, (chunks[0] as { runId: string }).runId)?.status).toBe('error');
  });
});
