/**
 * Speech from the app's own handlers (the embedded sandbox) played through the media process's
 * `speech-output` session, the way the Speech view's native output does: a MediaPlane whose
 * forked media process has HOME set to a folder holding the ALSA `file` device's ~/.asoundrc, so
 * what it plays lands in `played.raw`. Used by speech-output.test.ts and test/bench/speech-output.ts.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { SpeechOutput, type SpeechOutputEvent, type SpeechOutputOpen } from '../../main/families/speech/speech-output';
import { forkLauncher } from '../../main/media/fork-launcher';
import { MediaPlane } from '../../main/media/media-plane';
import { SpeechFieldsSchema, type SpeechFieldsInput, type SpeechRunChunk, type SpeechRunResult } from '../../shared/families/speech/contract';
import { startHarness, type Harness } from '../integration/services/harness';

const ROOT = resolve(__dirname, '../..');

export interface SpeechOutputHarness {
  h: Harness;
  plane: MediaPlane;
  home: string;
  playedFile: string;
  /** The file device's bytes as PCM16 (48 kHz stereo). */
  played(): Int16Array;
  /** Runs speech over REST or the WebSocket, handing each piece of audio to `output` as it arrives. */
  speak(mode: 'rest' | 'stream', fields: SpeechFieldsInput, output: SpeechOutputOpen): Promise<Spoken>;
  close(): Promise<void>;
}

export interface Spoken {
  result: SpeechRunResult;
  /** The audio bytes the service sent, in order (REST: the kept file). */
  audio: Uint8Array;
  events: Array<SpeechOutputEvent & { receivedAt: number }>;
  done: Awaited<SpeechOutput['done']>;
  /** main's performance.now() when the first audio reached main's handler (stream: the first chunk). */
  firstAudioInMainAt: number | null;
  output: SpeechOutput;
}

export async function startSpeechOutputHarness(): Promise<SpeechOutputHarness> {
  const home = mkdtempSync(join(tmpdir(), 'alsa-speech-'));
  const playedFile = join(home, 'played.raw');
  const template = readFileSync(join(ROOT, 'test/audio/asoundrc.template'), 'utf8');
  writeFileSync(join(home, '.asoundrc'), template.replaceAll('PLAYBACK_RAW_FILE', playedFile).replaceAll('CAPTURE_RAW_FILE', join(home, 'capture.raw')));
  writeFileSync(join(home, 'capture.raw'), new Uint8Array(0));
  const lines: string[] = [];
  const plane = new MediaPlane({
    launch: forkLauncher({ entry: resolve(ROOT, 'main/media/entry.ts'), execArgv: ['--import', 'tsx'], env: { ...process.env, HOME: home }, log: (l) => lines.push(l) }),
    log: (l) => lines.push(l),
    transport: { kind: 'websocket', origins: () => [] },
  });
  const up = await plane.start();
  if (!up.ok) throw new Error(`media process: ${up.error.message}\n${lines.join('\n')}`);
  const h = await startHarness();

  const speak = async (mode: 'rest' | 'stream', input: SpeechFieldsInput, open: SpeechOutputOpen): Promise<Spoken> => {
    const opened = await SpeechOutput.open(plane, open);
    if (!opened.ok) throw new Error(opened.error.message);
    const output = opened.value;
    const events: Spoken['events'] = [];
    output.onEvent((e) => events.push({ ...e, receivedAt: performance.now() }));
    let firstAudioInMainAt: number | null = null;
    const sends: Promise<unknown>[] = [];
    const emit = (chunk: SpeechRunChunk): void => {
      if (chunk.type !== 'audio') return;
      firstAudioInMainAt ??= performance.now();
      sends.push(output.push(chunk.audio));
    };
    const ctx = { sessionId: 'speech-out', signal: new AbortController().signal, streamId: 's', emit };
    const fields = SpeechFieldsSchema.parse(input);
    const result = mode === 'stream' ? await h.app.handlers.speech.stream(fields, ctx) : await h.app.handlers.speech.synthesize(fields, ctx);
    let audio: Uint8Array;
    if (mode === 'rest') {
      audio = new Uint8Array(readFileSync(h.app.media.blobs.pathOf(result.audio!.hash)));
      firstAudioInMainAt = performance.now();
      sends.push(output.push(audio));
    } else {
      const kept = new Uint8Array(readFileSync(h.app.media.blobs.pathOf(result.audio!.hash)));
      // pcm / G.711 are kept as WAV (44-byte header): the stream's own bytes are what follows it.
      audio = fields.codec === 'mp3' || fields.codec === 'wav' ? kept : kept.subarray(44);
    }
    for (const sent of await Promise.all(sends)) {
      const reply = sent as { ok: boolean; error?: { message: string } };
      if (!reply.ok) throw new Error(reply.error!.message);
    }
    await output.end();
    const done = await output.done;
    return { result, audio, events, done, firstAudioInMainAt, output };
  };

  return {
    h,
    plane,
    home,
    playedFile,
    played() {
      const raw = readFileSync(playedFile);
      return new Int16Array(raw.buffer, raw.byteOffset, raw.byteLength >> 1);
    },
    speak,
    async close() {
      await h.close();
      await plane.dispose();
      rmSync(home, { recursive: true, force: true });
    },
  };
}
