/**
 * Records one live session into a data folder for the session-playback e2e test, as a voice
 * family will (there is none yet): `node --import tsx seed-session.ts <dataDir> <events>`. Real
 * speech from the espeak-ng CLI comes *in* (the model, 22.05 kHz), a tone goes *out* (the
 * microphone, 16 kHz), events both ways (every audio frame summarised by the recorder), marks
 * `text_done` and `first_audio`; closed cleanly with the stereo mix kept in the gallery. Prints
 * `seeded <runId> <speechMs>`.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { createApp } from '../../main/app';
import { createFileKeyStore } from '../../main/store/key-file';
import { parseWav } from '../../shared/audio/wav';
import type { Endpoint } from '../../shared/contract/runs';

/** Real speech from the espeak-ng CLI (a test-only tool here; the app's synthesiser is the sandbox's). */
function speech(text: string): { samples: Int16Array; sampleRate: number } {
  const parsed = parseWav(new Uint8Array(execFileSync('espeak-ng', ['-v', 'en-us', '--stdout', text], { maxBuffer: 64 * 1024 * 1024 })));
  if (!parsed.ok) throw new Error(parsed.error.message);
  return { samples: parsed.value.samples, sampleRate: parsed.value.sampleRate };
}

function bytes(samples: Int16Array): Uint8Array {
  return new Uint8Array(samples.buffer, samples.byteOffset, samples.byteLength);
}

async function main(): Promise<void> {
  const [dataDir, eventsArg] = process.argv.slice(2);
  const extraEvents = Number(eventsArg ?? 0);
  const app = await createApp({ dataDir: dataDir!, shell: 'browser', keyStore: createFileKeyStore(join(dataDir!, 'keys.json')), emit: () => undefined, log: (l) => process.stderr.write(`${l}\n`), version: 'test' });
  const runId = 'speechsession1';
  const rec = app.recordings.open({
    kind: 'tts',
    run: {
      id: runId,
      createdAt: Date.now(),
      // The speech family's endpoint is not described yet: History offers an undescribed endpoint the session layout.
      endpoint: 'tts.stream' as Endpoint,
      model: 'svc-voice-1',
      connectionId: 'sandbox',
      connectionName: 'Sandbox',
      isSandbox: true,
      request: { method: 'GET', url: 'ws://127.0.0.1/v1/tts?voice=eve&language=en', headers: {}, body: null },
      promptText: 'Hello from the workbench',
    },
  });
  const voice = speech('Hello from the workbench. This is a recorded session.');
  await rec.openTrack('out', { sampleRate: 16_000, name: 'microphone' });
  await rec.openTrack('in', { sampleRate: voice.sampleRate, name: 'speech' });
  rec.event({ direction: 'out', kind: 'json', data: JSON.stringify({ type: 'text.delta', delta: 'Hello from the workbench.' }) });
  rec.event({ direction: 'out', kind: 'json', data: JSON.stringify({ type: 'text.done' }) });
  rec.mark('text_done');
  // A quiet 300 Hz tone out, 20 ms frames, alongside the speech in (20 ms frames too).
  const inFrame = Math.round(voice.sampleRate / 50);
  const tone = new Int16Array(320);
  let phase = 0;
  for (let at = 0, k = 0; at < voice.samples.length; at += inFrame, k++) {
    for (let i = 0; i < 320; i++) tone[i] = Math.round(2000 * Math.sin((2 * Math.PI * 300 * phase++) / 16_000));
    rec.audio('out', bytes(tone), { atMs: k * 20, frame: { data: JSON.stringify({ type: 'input_audio_buffer.append' }) } });
    if (k === 0) rec.mark('first_audio');
    rec.audio('in', bytes(voice.samples.subarray(at, at + inFrame)), { atMs: k * 20, frame: { event: 'audio.delta', data: JSON.stringify({ type: 'audio.delta' }) } });
  }
  for (let i = 0; i < extraEvents; i++) rec.event({ direction: i % 2 ? 'in' : 'out', kind: 'json', data: JSON.stringify({ type: i % 2 ? 'transcript.partial' : 'text.delta', seq: i }) });
  rec.event({ direction: 'in', kind: 'json', data: JSON.stringify({ type: 'audio.done' }) });
  await rec.close({ outputText: 'Hello from the workbench. This is a recorded session.' }, { stereoMix: { name: 'speech session.wav' } });
  await app.recordings.settled();
  process.stdout.write(`seeded ${runId} ${Math.round((voice.samples.length * 1000) / voice.sampleRate)}\n`);
  await app.dispose();
}

main().catch((error: unknown) => {
  process.stderr.write(`seed-session failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
