/**
 * The official `openai` package's realtime WebSocket client (OpenAIRealtimeWS) pointed at the
 * sandbox completes a text turn and an audio turn. The SDK always dials wss://; the sandbox is
 * plain ws on loopback, so the test hands ws a plain TCP connection (`createConnection`) to the
 * sandbox's port: everything above TCP is the SDK's own.
 */
import { connect as netConnect } from 'node:net';
import OpenAI from 'openai';
import { OpenAIRealtimeWS } from 'openai/realtime/ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type SandboxServer } from '../../../../main/sandbox/index';

const KEY = 'sk-rt-sdk-1';
let sb: SandboxServer;

beforeAll(async () => {
  sb = await startSandbox({ keys: [KEY], tokenDelayMs: 0, realtime: { audioLeadMs: Infinity } });
});
afterAll(() => sb.close());

async function open(): Promise<{ rt: OpenAIRealtimeWS; events: Array<{ type: string; [k: string]: any }>; errors: unknown[]; until(type: string, n?: number): Promise<any> }> {
  const client = new OpenAI({ apiKey: KEY, baseURL: `${sb.url}/v1` });
  const rt = new OpenAIRealtimeWS({ model: 'svc-voice-latest', options: { createConnection: () => netConnect(sb.port, '127.0.0.1') } as never }, client);
  const events: Array<{ type: string; [k: string]: any }> = [];
  const errors: unknown[] = [];
  const waiters: Array<() => void> = [];
  rt.on('event', (e) => {
    events.push(e as never);
    for (const w of waiters.splice(0)) w();
  });
  rt.on('error', (err) => errors.push(err));
  await new Promise<void>((resolve, reject) => {
    rt.socket.once('open', () => resolve());
    rt.socket.once('error', reject);
  });
  const until = (type: string, n = 1) =>
    new Promise<any>((resolve) => {
      const check = () => {
        const found = events.filter((e) => e.type === type);
        if (found.length >= n) resolve(found[n - 1]);
        else waiters.push(check);
      };
      check();
    });
  return { rt, events, errors, until };
}

describe('openai OpenAIRealtimeWS against the sandbox', () => {
  it('completes a text turn', async () => {
    const { rt, events, errors, until } = await open();
    await until('conversation.created');
    rt.send({ type: 'session.update', session: { type: 'realtime', output_modalities: ['text'], turn_detection: null } as never });
    await until('session.updated');
    rt.send({ type: 'conversation.item.create', item: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Say Hello from the SDK.' }] } });
    rt.send({ type: 'response.create' });
    const done = await until('response.done');
    expect(done.response.status).toBe('completed');
    const text = events.filter((e) => e.type === 'response.output_text.delta').map((e) => e.delta).join('');
    expect(text).toBe('Hello from the SDK.');
    expect(done.response.output[0].content[0].text).toBe(text);
    expect(errors).toEqual([]);
    rt.close();
  });

  it('completes an audio turn', async () => {
    const { rt, events, errors, until } = await open();
    rt.send({ type: 'session.update', session: { type: 'realtime', audio: { output: { format: { type: 'audio/pcm', rate: 24000 }, voice: 'ara' } } } as never });
    await until('session.updated');
    rt.send({ type: 'conversation.item.create', item: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Say Good evening.' }] } });
    rt.send({ type: 'response.create' });
    const done = await until('response.done');
    const audio = Buffer.concat(events.filter((e) => e.type === 'response.output_audio.delta').map((e) => Buffer.from(e.delta, 'base64')));
    expect(audio.length / 48000).toBeGreaterThan(0.4);
    expect(events.filter((e) => e.type === 'response.output_audio_transcript.delta').map((e) => e.delta).join('')).toBe('Good evening.');
    expect(done.response.output[0].content[0].transcript).toBe('Good evening.');
    expect(errors).toEqual([]);
    rt.close();
  });
});
