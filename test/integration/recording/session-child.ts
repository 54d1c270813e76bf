/**
 * A whole app in a child process recording a live session, for the kill -9 test:
 * `node --import tsx session-child.ts <dataDir> <rounds>` opens a session (a realtime call's
 * shape: microphone in at 16 kHz, model out at 24 kHz), then per round appends 20 ms of
 * microphone audio, 40 ms of model audio and a few events both ways, with a mark now and then.
 * Every 10 rounds it flushes and prints what is durable (`durable <runId> <inFrames> <outFrames>
 * <events>`); after the last round it writes a torn half frame to the microphone track (what a
 * kill during a write leaves) and idles mid-session until it is killed.
 */
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { createApp } from '../../../main/app';
import { createFileKeyStore } from '../../../main/store/key-file';

function tone(frames: number, from: number, hz: number, rate: number): Uint8Array {
  const out = new Int16Array(frames);
  for (let i = 0; i < frames; i++) out[i] = Math.round(8000 * Math.sin((2 * Math.PI * hz * (from + i)) / rate));
  return new Uint8Array(out.buffer);
}

async function main(): Promise<void> {
  const [dataDir, roundsArg] = process.argv.slice(2);
  const rounds = Number(roundsArg);
  const app = await createApp({
    dataDir,
    shell: 'browser',
    keyStore: createFileKeyStore(join(dataDir, 'keys.json')),
    emit: () => undefined,
    log: (line) => process.stderr.write(`${line}\n`),
    version: 'test',
  });
  const runId = `call${process.pid}`;
  const rec = app.recordings.open({
    kind: 'realtime',
    run: {
      id: runId,
      createdAt: Date.now(),
      endpoint: 'chat.completions',
      model: 'svc-realtime',
      connectionId: 'sandbox',
      connectionName: 'Sandbox',
      isSandbox: true,
      request: { method: 'GET', url: 'ws://127.0.0.1/v1/realtime?model=svc-realtime', headers: {}, body: null },
      promptText: '',
    },
  });
  // The microphone goes out to the service, the model's audio comes in.
  const micTrack = await rec.openTrack('out', { sampleRate: 16_000, name: 'microphone' });
  await rec.openTrack('in', { sampleRate: 24_000, name: 'model' });
  let mic = 0;
  let model = 0;
  let events = 0;
  for (let round = 1; round <= rounds; round++) {
    rec.audio('out', tone(320, mic, 440, 16_000), { frame: { data: '{"type":"input_audio_buffer.append"}' } });
    mic += 320;
    rec.event({ direction: 'out', kind: 'json', data: JSON.stringify({ type: 'conversation.item.create', round }) });
    rec.audio('in', tone(960, model, 220, 24_000), { frame: { event: 'response.output_audio.delta', data: JSON.stringify({ type: 'response.output_audio.delta', round }) } });
    model += 960;
    rec.event({ direction: 'in', kind: 'json', data: JSON.stringify({ type: 'response.output_audio_transcript.delta', delta: `word${round} ` }) });
    events += 4;
    if (round % 7 === 0) rec.mark('speech_stopped', { data: { round } });
    if (round % 10 === 0) {
      await rec.flush();
      process.stdout.write(`durable ${runId} ${mic} ${model} ${events} ${micTrack}\n`);
    }
  }
  appendFileSync(join(dataDir, 'tracks', `${micTrack}.pcm`), Buffer.from([7]));
  process.stdout.write('idle\n');
  // Kept alive mid-session by the app's sockets and timers until the test kills it.
}

main().catch((error: unknown) => {
  process.stderr.write(`session-child failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
