// PROTOTYPE: plays a tone through Playback on the default native device, flushes after 1 s; prints hrtime of flush.
import { createNaudiodonBackend } from '../../main/audio/naudiodon-backend';
import { Playback } from '../../main/audio/playback';

async function main(): Promise<void> {
  const backend = await createNaudiodonBackend();
  if (!backend.ok) throw new Error(backend.error.message);
  const opened = Playback.open({ backend: backend.value, sourceRate: 48000, periodMs: Number(process.env.PERIOD ?? 10) });
  if (!opened.ok) throw new Error(opened.error.message);
  const p = opened.value;
  const tone = new Int16Array(48000 * 3);
  for (let i = 0; i < tone.length; i++) tone[i] = Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / 48000));
  p.enqueue(tone);
  const results: unknown[] = [];
  for (let k = 0; k < 3; k++) {
    await new Promise((r) => setTimeout(r, 700));
    const at = process.hrtime.bigint();
    const heard = p.flush();
    results.push({ flushNs: String(at), heard });
    await new Promise((r) => setTimeout(r, 300));
    p.enqueue(tone.subarray(0, 48000));
  }
  await new Promise((r) => setTimeout(r, 700));
  await p.dispose();
  process.stderr.write(`RESULT ${JSON.stringify(results)}\n`);
  process.exit(0);
}
void main();
