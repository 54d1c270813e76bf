/**
 * Speech to text in the sandbox: a 30-minute WebSocket-style session through the state machine
 * (interim results, diarisation, Smart Turn; 22 kHz PCM in 100 ms frames sent as fast as they are
 * processed, so the figure is a real-time factor), with the process's RSS along the way; and a
 * 60 s file through the REST path's transcribe() with the longest event-loop stall while it runs.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseStreamParams } from '../../main/sandbox/stt/params';
import { SttSession } from '../../main/sandbox/stt/session';
import { transcribe } from '../../main/sandbox/stt/transcribe';
import { concat, pcmBytes, silence, speak } from '../unit/main/sandbox/stt/speech';

const MIB = 2 ** 20;
const gc = (globalThis as { gc?: () => void }).gc;

export async function run(): Promise<Record<string, unknown>> {
  const a = speak('This is a long stretch of speech that we repeat to make half an hour of audio for the transcriber.', 'en-us', 30);
  const b = speak('And another voice answers it, higher, after a pause.', 'en-us+f3', 50);
  const rate = a.rate;
  const block = pcmBytes(concat(a.pcm, silence(600, rate), b.pcm, silence(900, rate)));
  const blockSeconds = block.length / 2 / rate;
  const minutes = Number(process.env.STT_BENCH_MINUTES ?? 30);

  const session = await SttSession.create(parseStreamParams(new URLSearchParams({ sample_rate: String(rate), interim_results: 'true', diarize: 'true', smart_turn: '0.5' })));
  session.start();
  const frame = (rate * 2) / 10;
  gc?.();
  const rssStart = process.memoryUsage().rss;
  const rssEvery5Min: number[] = [];
  const heapEvery5Min: number[] = [];
  let audio = 0;
  let messages = 0;
  const t0 = performance.now();
  while (audio < minutes * 60) {
    for (let at = 0; at < block.length; at += frame) messages += session.audio(block.subarray(at, at + frame)).messages.length;
    const before = Math.floor(audio / 300);
    audio += blockSeconds;
    if (Math.floor(audio / 300) > before) {
      gc?.();
      const mem = process.memoryUsage();
      rssEvery5Min.push(Math.round(mem.rss / MIB));
      heapEvery5Min.push(Math.round(mem.heapUsed / MIB));
    }
  }
  const done = session.message('{"type":"audio.done"}');
  const streamMs = performance.now() - t0;

  const minute = concat(...Array.from({ length: Math.ceil(60 / blockSeconds) }, () => new Int16Array(block.buffer, block.byteOffset, block.length / 2)));
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  const t1 = performance.now();
  const rest = await transcribe([minute], rate, { language: null, diarize: true, multichannel: false, style: { fillerWords: false, keyterms: [], itn: false } });
  const restMs = performance.now() - t1;
  delay.disable();

  return {
    stream: {
      audioSeconds: Math.round(audio),
      wallSeconds: Math.round(streamMs / 100) / 10,
      realTimeFactor: Math.round((audio * 1000) / streamMs),
      messages,
      doneDuration: (done.messages[0] as { duration: number }).duration,
      rssStartMiB: Math.round(rssStart / MIB),
      rssEvery5MinMiB: rssEvery5Min,
      heapUsedEvery5MinMiB: heapEvery5Min,
      gcExposed: gc !== undefined,
    },
    rest: {
      audioSeconds: Math.round((minute.length / rate) * 10) / 10,
      ms: Math.round(restMs),
      words: rest.words?.length ?? 0,
      speakers: new Set(rest.words?.map((w) => w.speaker)).size,
      maxEventLoopStallMs: Math.round(delay.max / 1e6),
    },
  };
}
