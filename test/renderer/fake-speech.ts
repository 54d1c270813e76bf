/**
 * The `speech` family of the fake workbench: each synthesize / stream request is held for the test
 * to drive (`emit` chunks such as streamed audio, then `finish` or `fail`), the voices are a list
 * the test sets, and finished results answer `ofRun`.
 */
import type { FamilyApi, StreamHandle } from '../../shared/contract/api';
import { WorkbenchFailure, type WorkbenchError } from '../../shared/contract/errors';
import type { speechContract, SpeechFieldsInput, SpeechRunChunk, SpeechRunResult, SpeechVoice } from '../../shared/families/speech/contract';

export interface FakeSpeechRequest {
  readonly method: 'speech.synthesize' | 'speech.stream';
  readonly input: SpeechFieldsInput;
  readonly runId: string;
  readonly cancelled: boolean;
  emit(chunk: SpeechRunChunk): void;
  finish(over?: Partial<SpeechRunResult>): SpeechRunResult;
  fail(error: WorkbenchError): void;
}

export interface FakeSpeechControls {
  requests: FakeSpeechRequest[];
  voices: SpeechVoice[];
  results: Map<string, SpeechRunResult>;
}

export const FAKE_VOICES: SpeechVoice[] = [
  { id: 'eve', name: 'Eve', kind: 'built-in', language: null },
  { id: 'ara', name: 'Ara', kind: 'built-in', language: null },
  { id: 'abcd1234', name: 'My narrator', kind: 'custom', language: 'en' },
];

/** Results the next fake workbench's `speech.ofRun` answers from the start (a History entry reads them as it mounts). */
export const PRESET_SPEECH_RESULTS = new Map<string, SpeechRunResult>();

export function createFakeSpeech(record: (method: string, input: unknown) => void): { api: FamilyApi<typeof speechContract>; controls: FakeSpeechControls } {
  const controls: FakeSpeechControls = { requests: [], voices: [...FAKE_VOICES], results: new Map(PRESET_SPEECH_RESULTS) };
  const start = (method: FakeSpeechRequest['method'], input: SpeechFieldsInput, onChunk: (c: SpeechRunChunk) => void): StreamHandle<SpeechRunResult> => {
    record(method, input);
    let settle!: { resolve: (r: SpeechRunResult) => void; reject: (e: unknown) => void };
    const result = new Promise<SpeechRunResult>((resolve, reject) => (settle = { resolve, reject }));
    const runId = `run-speech${controls.requests.length + 1}`;
    let done = false;
    let cancelled = false;
    const req: FakeSpeechRequest = {
      method,
      input,
      runId,
      get cancelled() {
        return cancelled;
      },
      emit: (chunk) => void (!done && onChunk(chunk)),
      finish(over = {}) {
        const res: SpeechRunResult = {
          runId,
          audio: null,
          codec: input.codec ?? 'mp3',
          contentType: 'audio/mpeg',
          duration: 1,
          timestamps: null,
          form: method === 'speech.stream' ? 'stream' : 'json',
          partial: null,
          timings: { totalMs: 500, ttfbMs: 100, firstAudioMs: method === 'speech.stream' ? 120 : null },
          costTicks: null,
          traceId: null,
          ...over,
        };
        controls.results.set(runId, res);
        if (!done) {
          done = true;
          settle.resolve(res);
        }
        return res;
      },
      fail(error) {
        if (done) return;
        done = true;
        settle.reject(new WorkbenchFailure(error));
      },
    };
    controls.requests.push(req);
    queueMicrotask(() => req.emit({ type: 'started', runId }));
    return {
      streamId: `speech-${runId}`,
      result,
      cancel: async () => {
        cancelled = true;
        req.fail({ code: 'cancelled', message: 'Cancelled.' });
      },
    };
  };
  const api: FamilyApi<typeof speechContract> = {
    synthesize: (input, onChunk) => start('speech.synthesize', input, onChunk),
    stream: (input, onChunk) => start('speech.stream', input, onChunk),
    voices: async (input) => (record('speech.voices', input), { voices: controls.voices, customError: null }),
    ofRun: async (input) => (record('speech.ofRun', input), controls.results.get(input.runId) ?? null),
  };
  return { api, controls };
}
