/**
 * Speech from the app's own handlers (the embedded sandbox) played through the media process's
 * `speech-output` session, the way the Speech view's native output does: a MediaPlane whose
 * forked media process has HOME set to a folder holding the ALSA `file` device's ~/.asoundrc, so
 * what it plays lands in `played.raw`. Used by speech-output.test.ts and test/bench/speech-output.ts.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SpeechOutput, type SpeechOutputEvent, type SpeechOutputOpen } from '../../main/families/speech/speech-output';
import { forkLauncher } from '../../main/media/fork-launcher';
import { MediaPlane } from '../../main/media/media-plane';
import { SpeechFieldsSchema, type SpeechFieldsInput, type SpeechRunChunk, type SpeechRunResult } from '../../shared/families/speech/contract';
import { startHarness, type Harness } from '../integration/services/harness';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
/** The FIFO card's byte rate: 48 kHz × 16 channels × 4 bytes. */
export const FIFO_BYTES_PER_SECOND = 48000 * 16 * 4;

export interface SpeechOutputHarness {
  h: Harness;
  plane: MediaPlane;
  home: string;
  playedFile: string;
  /** The file device's bytes as PCM16 (48 kHz stereo). */
  played(): Int16Array;
  /** With the FIFO device: the sound/silence changes as the card played them (fifo-sink.py). */
  sinkLog(): SinkChange[];
  /** With the FIFO device: the card's scheduling (real-time when the machine allows it). */
  sinkScheduling(): string;
  /** Runs speech over REST or the WebSocket, handing each piece of audio to `output` as it arrives. */
  speak(mode: 'rest' | 'stream', fields: SpeechFieldsInput, output: SpeechOutputOpen, options?: { stopAfterMs?: number }): Promise<Spoken>;
  close(): Promise<void>;
}

export interface SinkChange {
  /** CLOCK_MONOTONIC (ns) when the change played. */
  ns: bigint;
  /** `underrun` / `fed`: the writer stopped / started keeping up with the card. */
  what: 'sound' | 'silence' | 'underrun' | 'fed' | 'closed';
  /** Bytes that sat in the card's pipe when the change was read: the rig's own buffer. */
  inPipe: number;
  /** Byte position of the change in what the card played since the device opened. */
  position: number;
  /** Bytes the writer did not deliver in time since it opened (underruns), up to this change. */
  underrunBytes: number;
}

export interface Spoken {
  result: SpeechRunResult;
  /** The audio bytes the service sent, in order (REST: the kept file). */
  audio: Uint8Array;
  events: Array<SpeechOutputEvent & { receivedAt: number }>;
  done: Awaited<SpeechOutput['done']>;
  /** Bytes of the first piece of audio (stream: the first audio.delta). */
  firstChunkBytes: number;
  /** main's performance.now() when the first audio reached main's handler (stream: the first chunk). */
  firstAudioInMainAt: number | null;
  output: SpeechOutput;
  /** With `stopAfterMs`: main's performance.now() when Stop was sent, and its answer. */
  stopped: { at: number; playedMs: number } | null;
}

/**
 * `fifo`: adds the output device `ALSA:fifoplay`, ALSA's file plugin writing into a FIFO that
 * fifo-sink.py (python3) reads in real time, a paced card: `sinkLog()` gives the sound/silence
 * changes it played, on CLOCK_MONOTONIC.
 */
export async function startSpeechOutputHarness(options: { fifo?: boolean } = {}): Promise<SpeechOutputHarness> {
  const home = mkdtempSync(join(tmpdir(), 'alsa-speech-'));
  const playedFile = join(home, 'played.raw');
  const fifo = join(home, 'fifo.raw');
  const sinkLogFile = join(home, 'sink.log');
  const template = readFileSync(join(ROOT, 'test/audio/asoundrc.template'), 'utf8');
  let rc = template.replaceAll('PLAYBACK_RAW_FILE', playedFile).replaceAll('CAPTURE_RAW_FILE', join(home, 'capture.raw'));
  let sink: ChildProcess | null = null;
  if (options.fifo) {
    execFileSync('mkfifo', [fifo]);
    writeFileSync(sinkLogFile, '');
    // The card's frames are widened (16 channels of S32) so the two-page pipe holds 2.7 ms, not 43 (fifo-sink.py).
    sink = spawn('python3', [join(ROOT, 'test/audio/fifo-sink.py'), fifo, sinkLogFile, String(FIFO_BYTES_PER_SECOND), '64'], { stdio: 'ignore' });
    rc += `pcm.fifoplay {\n  type plug\n  slave {\n    pcm { type file slave.pcm "null" file "${fifo}" format "raw" }\n    format S32_LE\n    rate 48000\n    channels 16\n  }\n}\n`;
  }
  writeFileSync(join(home, '.asoundrc'), rc);
  writeFileSync(join(home, 'capture.raw'), new Uint8Array(0));
  const lines: string[] = [];
  const plane = new MediaPlane({
    launch: forkLauncher({ entry: resolve(ROOT, 'main/media/entry.ts'), execArgv: ['--import', 'tsx'], env: { ...process.env, HOME: home }, log: (l) => lines.push(l) }),
    log: (l) => lines.push(l),
    transport: { kind: 'websocket', origins: () => [] },
  });
  const up = await plane.start();
  if (!up.ok) throw new Error(`media process: ${up.error.message}\n${lines.join('\n')}`);
  const h = await startHarness({ mediaPlane: plane });

  const speak = async (mode: 'rest' | 'stream', input: SpeechFieldsInput, open: SpeechOutputOpen, options: { stopAfterMs?: number } = {}): Promise<Spoken> => {
    const opened = await SpeechOutput.open(plane, open);
    if (!opened.ok) throw new Error(opened.error.message);
    const output = opened.value;
    const events: Spoken['events'] = [];
    let stopped: Spoken['stopped'] = null;
    let stopping: Promise<unknown> = Promise.resolve();
    output.onEvent((e) => {
      events.push({ ...e, receivedAt: performance.now() });
      // Stop as the user would, once this much has been heard.
      if (e.type === 'progress' && options.stopAfterMs !== undefined && e.playedMs >= options.stopAfterMs && !stopped) {
        stopped = { at: performance.now(), playedMs: NaN };
        const s = stopped;
        stopping = output.stop().then((r) => {
          if (!r.ok) throw new Error(r.error.message);
          s.playedMs = r.value.playedMs;
        });
      }
    });
    let firstAudioInMainAt: number | null = null;
    let firstChunkBytes = 0;
    const sends: Promise<unknown>[] = [];
    const emit = (chunk: SpeechRunChunk): void => {
      if (chunk.type !== 'audio') return;
      if (firstAudioInMainAt === null) {
        firstAudioInMainAt = performance.now();
        firstChunkBytes = chunk.audio.byteLength;
      }
      sends.push(output.push(chunk.audio));
    };
    const ctx = { sessionId: 'speech-out', signal: new AbortController().signal, streamId: 's', emit };
    const fields = SpeechFieldsSchema.parse(input);
    const result = mode === 'stream' ? await h.app.handlers.speech.stream(fields, ctx) : await h.app.handlers.speech.synthesize(fields, ctx);
    let audio: Uint8Array;
    if (mode === 'rest') {
      audio = new Uint8Array(readFileSync(h.app.media.blobs.pathOf(result.audio!.hash)));
      firstAudioInMainAt = performance.now();
      firstChunkBytes = audio.byteLength;
      sends.push(output.push(audio));
    } else {
      const kept = new Uint8Array(readFileSync(h.app.media.blobs.pathOf(result.audio!.hash)));
      // pcm / G.711 are kept as WAV (44-byte header): the stream's own bytes are what follows it.
      audio = fields.codec === 'mp3' || fields.codec === 'wav' ? kept : kept.subarray(44);
    }
    for (const sent of await Promise.all(sends)) {
      const reply = sent as { ok: boolean; error?: { message: string } };
      if (!reply.ok && !stopped) throw new Error(reply.error!.message);
    }
    await output.end();
    const done = await output.done;
    await stopping;
    return { result, audio, events, done, firstAudioInMainAt, firstChunkBytes, output, stopped };
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
    sinkLog: () =>
      readFileSync(sinkLogFile, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => l.split(' '))
        .map(([t, what, inPipe, position, underrun]) => ({
          ns: BigInt(t!),
          what: what as SinkChange['what'],
          inPipe: Number(inPipe ?? 0),
          position: Number(position ?? 0),
          underrunBytes: Number(underrun ?? 0),
        })),
    sinkScheduling: () => readFileSync(`${sinkLogFile}.sched`, 'utf8'),
    speak,
    async close() {
      await h.close();
      await plane.dispose();
      sink?.kill();
      rmSync(home, { recursive: true, force: true });
    },
  };
}
