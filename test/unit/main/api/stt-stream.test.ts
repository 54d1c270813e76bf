import { afterEach, describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { ApiClient } from '../../../../main/api/client';
import type { CapturedFrame } from '../../../../main/api/event-socket';
import { openTranscriptionStream, type TranscriptEvent } from '../../../../main/api/stt-stream';
import type { SttStreamQuery } from '../../../../shared/wire/stt';
import { startWsServer } from './ws-server';

const KEY = 'sk-stt-stream-key-77';
const FRAME = Buffer.alloc(3200, 1); // 100 ms of 16 kHz PCM

type Mode = 'ok' | 'undecodable' | 'silent' | 'refuse' | 'drop';

/** A fake /v1/stt: ready, then a partial per 2 frames; finalize → utterance final; audio.done → done per channel, close. */
function sttService(mode: Mode, got: { bytes: number; finalize: unknown[] }) {
  return (ws: WebSocket, channels: number): void => {
    if (mode === 'refuse') return void ws.send(JSON.stringify({ type: 'error', message: 'model svc-x is unknown' }));
    if (mode !== 'silent') setTimeout(() => ws.send(JSON.stringify({ type: 'transcript.created' })), 5);
    let frames = 0;
    ws.on('message', (data, isBinary) => {
      if (isBinary) {
        got.bytes += (data as Buffer).byteLength;
        frames++;
        if (mode === 'undecodable') {
          ws.send(JSON.stringify({ type: 'error', message: 'invalid audio frame' }));
          return void ws.close(1000);
        }
        if (mode === 'drop' && frames === 2) return void ws.terminate();
        if (frames % 2 === 0) ws.send(JSON.stringify({ type: 'transcript.partial', text: 'hello wor', words: [{ text: 'hello', start: 0.12, end: 0.4, confidence: 0.97 }], is_final: false, speech_final: false, start: 0, duration: 0.2 * frames }));
        return;
      }
      const m = JSON.parse(String(data)) as { type: string; channel?: number };
      if (m.type === 'finalize' || m.type === 'Finalize') {
        got.finalize.push(m);
        ws.send(JSON.stringify({ type: 'transcript.partial', text: 'hello world', words: [], is_final: true, speech_final: true, start: 0, duration: 1.3, channel_index: m.channel ?? 0 }));
      }
      if (m.type === 'audio.done') {
        for (let c = 0; c < channels; c++) ws.send(JSON.stringify({ type: 'transcript.done', text: '', words: [], duration: (got.bytes / 32000) / channels, channel_index: c }));
        ws.close(1000);
      }
    });
  };
}

describe('api/stt WebSocket', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  async function open(mode: Mode, query: SttStreamQuery = {}, readyTimeoutMs?: number) {
    const got = { bytes: 0, finalize: [] as unknown[] };
    const service = sttService(mode, got);
    const srv = await startWsServer((ws, req) => service(ws, Number(new URL(req.url!, 'http://x').searchParams.get('channels') ?? 1)));
    const client = new ApiClient({ baseUrl: srv.baseUrl, apiKey: KEY });
    cleanups.push(() => srv.close(), () => client.dispose());
    const frames: CapturedFrame[] = [];
    const opened = await openTranscriptionStream(client, query, { onFrame: (f) => frames.push(f), readyTimeoutMs });
    if (opened.ok) cleanups.push(() => void opened.stream.socket.terminate());
    return { opened, got, srv, frames };
  }

  async function all(events: AsyncIterable<TranscriptEvent>): Promise<TranscriptEvent[]> {
    const out: TranscriptEvent[] = [];
    for await (const e of events) out.push(e);
    return out;
  }

  it('waits for transcript.created, sends binary audio, finalizes per channel, ends with one transcript.done per channel', async () => {
    const { opened, got, srv, frames } = await open('ok', { sample_rate: 16000, encoding: 'pcm', interim_results: true, multichannel: true, channels: 2, keyterm: ['Acme', 'Zed'] });
    expect(opened.ok).toBe(true);
    if (!opened.ok) return;
    expect(srv.upgrades[0]!.url).toBe('/v1/stt?sample_rate=16000&encoding=pcm&interim_results=true&multichannel=true&channels=2&keyterm=Acme&keyterm=Zed');
    const { stream } = opened;
    const reading = all(stream.events());
    for (let i = 0; i < 4; i++) expect(await stream.sendAudio(FRAME)).toEqual({ ok: true });
    expect(await stream.finalize(1)).toEqual({ ok: true });
    expect(await stream.end()).toEqual({ ok: true });
    const events = await reading;
    expect(got).toEqual({ bytes: 12800, finalize: [{ type: 'finalize', channel: 1 }] });
    expect(events.map((e) => (e.kind === 'partial' ? `${e.kind}:${e.state}:${e.channel}` : e.kind === 'done' ? `done:${e.channel}` : e.kind))).toEqual([
      'partial:interim:0',
      'partial:interim:0',
      'partial:utterance_final:1',
      'done:0',
      'done:1',
      'end',
    ]);
    expect(events.at(-1)).toEqual({ kind: 'end', ok: true, error: null, channelsDone: [0, 1] });
    // Binary frames captured as audio summaries: 3,200 bytes of 2-channel 16 kHz PCM is 50 ms.
    expect(frames.filter((f) => f.kind === 'binary')).toHaveLength(4);
    expect(frames.find((f) => f.kind === 'binary')).toMatchObject({ direction: 'out', audio: { bytes: 3200, durationMs: 50 } });
  });

  it('an undecodable frame: the service error, then an incomplete end', async () => {
    const { opened } = await open('undecodable');
    if (!opened.ok) throw new Error(opened.error.message);
    const reading = all(opened.stream.events());
    await opened.stream.sendAudio(Buffer.from([1, 2, 3]));
    const events = await reading;
    expect(events[0]).toMatchObject({ kind: 'error', error: { kind: 'http', message: 'The transcription service reported an error: invalid audio frame.' } });
    expect(events.at(-1)).toMatchObject({ kind: 'end', ok: false, error: { kind: 'stream_incomplete', message: 'The connection closed while audio was still being sent; the transcript so far is kept.' } });
  });

  it('a dropped connection mid-stream ends with the 1006 error; transcripts before it were read', async () => {
    const { opened } = await open('drop');
    if (!opened.ok) throw new Error(opened.error.message);
    const reading = all(opened.stream.events());
    await opened.stream.sendAudio(FRAME);
    await opened.stream.sendAudio(FRAME);
    const events = await reading;
    expect(events.at(-1)).toMatchObject({ kind: 'end', ok: false, error: { kind: 'network', code: 'ws_1006' } });
  });

  it('an error before ready fails the open with the service words; no ready message times out', async () => {
    const refused = await open('refuse');
    expect(refused.opened).toMatchObject({ ok: false, error: { kind: 'http', message: 'The transcription could not start: model svc-x is unknown.' } });
    const silent = await open('silent', {}, 100);
    expect(silent.opened).toMatchObject({ ok: false, error: { kind: 'timeout', message: 'The transcription service did not say it was ready (transcript.created) within 0.1 s; the connection was closed.' } });
  });

  it('refuses a query that breaks a rule of the spec table before connecting', async () => {
    const { opened, srv } = await open('ok', { endpointing: 9000 });
    expect(opened).toMatchObject({ ok: false, error: { kind: 'invalid_request', message: 'endpointing must be a whole number from 0 to 5000 (got 9000).' } });
    expect(srv.upgrades).toHaveLength(0);
  });
});
