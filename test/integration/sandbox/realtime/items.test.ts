/**
 * Manual turns and the conversation on /v1/realtime, checked raw: input_audio_buffer.append
 * (base64 in the session's input format, a PCM append need not end on a sample) with commit and
 * clear; conversation.item.create for user text and audio, assistant history seeding, function
 * calls and their outputs (with previous_item_id placement); item.delete; each misuse an error event.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type SandboxServer } from '../../../../main/sandbox/index';
import { connect, type RtClient } from './client';

const KEY = 'sk-rt-items-1';
let sb: SandboxServer;

beforeAll(async () => {
  sb = await startSandbox({ keys: [KEY], tokenDelayMs: 0 });
});
afterAll(() => sb.close());

/** `ms` of a 440 Hz tone as PCM16 LE at `rate`. */
function tone(ms: number, rate: number): Buffer {
  const n = Math.round((ms / 1000) * rate);
  const b = Buffer.alloc(n * 2);
  for (let i = 0; i < n; i++) b.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / rate)), i * 2);
  return b;
}

async function manual(): Promise<RtClient> {
  const c = await connect(sb, { headers: { authorization: `Bearer ${KEY}` } });
  c.send({ type: 'session.update', session: { turn_detection: null } });
  await c.until('session.updated');
  return c;
}

describe('input_audio_buffer', () => {
  it('commits appended PCM as a user audio item: committed, then conversation.item.added', async () => {
    const c = await manual();
    const audio = tone(300, 24000);
    // Split on an odd byte: the half sample is carried to the next append.
    c.send({ type: 'input_audio_buffer.append', audio: audio.subarray(0, 1001).toString('base64') });
    c.send({ type: 'input_audio_buffer.append', audio: audio.subarray(1001).toString('base64') });
    c.send({ type: 'input_audio_buffer.commit', event_id: 'evt_commit' });
    const added = await c.until('conversation.item.added');
    const from = c.types().indexOf('session.updated') + 1;
    expect(c.types(from)).toEqual(['input_audio_buffer.committed', 'conversation.item.added']);
    const committed = c.events[from];
    expect(committed).toMatchObject({ previous_item_id: null, item_id: expect.stringMatching(/^item_/) });
    expect(added).toMatchObject({ previous_item_id: null, item: { id: committed.item_id, object: 'realtime.item', type: 'message', status: 'completed', role: 'user', content: [{ type: 'input_audio', transcript: null }] } });
    // The buffer is empty after a commit: a second commit has nothing.
    c.send({ type: 'input_audio_buffer.commit', event_id: 'evt_again' });
    const err = await c.until('error');
    expect(err.error).toMatchObject({ code: 'input_audio_buffer_commit_empty', event_id: 'evt_again' });
    expect(err.error.message).toContain('holds 0 ms');
    c.close();
  });

  it('clears the buffer; refuses a short commit, bad base64, and a commit under server VAD', async () => {
    const c = await manual();
    c.send({ type: 'input_audio_buffer.append', audio: tone(500, 24000).toString('base64') });
    c.send({ type: 'input_audio_buffer.clear' });
    await c.until('input_audio_buffer.cleared');
    c.send({ type: 'input_audio_buffer.append', audio: tone(60, 24000).toString('base64') });
    c.send({ type: 'input_audio_buffer.commit' });
    expect((await c.until('error', 1)).error.message).toContain('holds 60 ms of audio; commit needs at least 100 ms');
    c.send({ type: 'input_audio_buffer.append', audio: '%%% not base64' });
    expect((await c.until('error', 2)).error).toMatchObject({ code: 'invalid_value', param: 'audio' });
    c.send({ type: 'input_audio_buffer.append' });
    expect((await c.until('error', 3)).error).toMatchObject({ code: 'missing_required_parameter', param: 'audio' });
    c.send({ type: 'session.update', session: { turn_detection: { type: 'server_vad' } } });
    c.send({ type: 'input_audio_buffer.commit' });
    expect((await c.until('error', 4)).error.message).toContain('input_audio_buffer.commit is for manual turns');
    c.close();
  });

  it('counts G.711 input at 8 kHz: 80 bytes of µ-law are 10 ms', async () => {
    const c = await manual();
    c.send({ type: 'session.update', session: { audio: { input: { format: { type: 'audio/pcmu' } } } } });
    c.send({ type: 'input_audio_buffer.append', audio: Buffer.alloc(720, 0xff).toString('base64') });
    c.send({ type: 'input_audio_buffer.commit' });
    expect((await c.until('error')).error.message).toContain('holds 90 ms');
    c.send({ type: 'input_audio_buffer.append', audio: Buffer.alloc(80, 0xff).toString('base64') });
    c.send({ type: 'input_audio_buffer.commit' });
    await c.until('input_audio_buffer.committed');
    c.close();
  });
});

describe('input_audio_buffer limits', () => {
  it('refuses appends once a manual turn holds 15 minutes, until a commit or clear', async () => {
    const c = await manual();
    c.send({ type: 'session.update', session: { audio: { input: { format: { type: 'audio/pcmu' } } } } });
    // 15 minutes and 1 second of µ-law silence at 8 kHz.
    c.send({ type: 'input_audio_buffer.append', audio: Buffer.alloc(8000 * 901, 0xff).toString('base64') });
    c.send({ type: 'input_audio_buffer.append', event_id: 'evt_full', audio: Buffer.alloc(800, 0xff).toString('base64') });
    const err = await c.until('error');
    expect(err.error).toMatchObject({ code: 'input_audio_buffer_full', event_id: 'evt_full' });
    c.send({ type: 'input_audio_buffer.clear' });
    c.send({ type: 'input_audio_buffer.append', audio: Buffer.alloc(800, 0xff).toString('base64') });
    c.send({ type: 'input_audio_buffer.commit' });
    await c.until('input_audio_buffer.committed');
    expect(c.events.filter((e) => e.type === 'error')).toHaveLength(1);
    c.close();
  }, 60_000);
});

describe('conversation.item.create / delete', () => {
  it('adds user text, user audio, assistant seeding, a function call and its output, in place', async () => {
    const c = await manual();
    c.send({ type: 'conversation.item.create', item: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Hello!' }] } });
    const user = (await c.until('conversation.item.added', 1)).item;
    expect(user).toMatchObject({ object: 'realtime.item', type: 'message', role: 'user', status: 'completed', content: [{ type: 'input_text', text: 'Hello!' }] });
    c.send({ type: 'conversation.item.create', item: { id: 'item_seed', type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Earlier reply' }] } });
    const seeded = await c.until('conversation.item.added', 2);
    expect(seeded).toMatchObject({ previous_item_id: user.id, item: { id: 'item_seed', role: 'assistant', content: [{ type: 'text', text: 'Earlier reply' }] } });
    c.send({ type: 'conversation.item.create', item: { type: 'message', role: 'user', content: [{ type: 'input_audio', audio: tone(200, 24000).toString('base64') }] } });
    expect((await c.until('conversation.item.added', 3)).item.content).toEqual([{ type: 'input_audio', transcript: null }]);
    c.send({ type: 'conversation.item.create', item: { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' } });
    expect((await c.until('conversation.item.added', 4)).item).toMatchObject({ type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}', status: 'completed' });
    c.send({ type: 'conversation.item.create', item: { type: 'function_call_output', call_id: 'call_1', output: '{"temp":21}' } });
    expect((await c.until('conversation.item.added', 5)).item).toMatchObject({ type: 'function_call_output', call_id: 'call_1', output: '{"temp":21}' });
    // previous_item_id places an item: after the first, or at the start with "root".
    c.send({ type: 'conversation.item.create', previous_item_id: user.id, item: { id: 'item_after_user', type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Wedged' }] } });
    expect((await c.until('conversation.item.added', 6)).previous_item_id).toBe(user.id);
    c.send({ type: 'conversation.item.create', previous_item_id: 'root', item: { type: 'message', role: 'system', content: [{ type: 'input_text', text: 'System note' }] } });
    expect((await c.until('conversation.item.added', 7)).previous_item_id).toBeNull();
    c.send({ type: 'conversation.item.retrieve', item_id: 'item_after_user' });
    expect((await c.until('conversation.item.retrieved')).item.content).toEqual([{ type: 'input_text', text: 'Wedged' }]);

    c.send({ type: 'conversation.item.delete', item_id: 'item_seed' });
    expect(await c.until('conversation.item.deleted')).toMatchObject({ item_id: 'item_seed' });
    c.send({ type: 'conversation.item.delete', item_id: 'item_seed', event_id: 'evt_del' });
    expect((await c.until('error')).error).toMatchObject({ code: 'item_not_found', event_id: 'evt_del', param: 'item_id' });
    c.close();
  });

  it('refuses bad items, each with its error', async () => {
    const c = await manual();
    c.send({ type: 'conversation.item.create', item: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'a' }] } });
    await c.until('conversation.item.added');
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ item: { type: 'message', role: 'robot', content: [] } }, 'item.role', 'must be "user", "assistant" or "system"'],
      [{ item: { type: 'message', role: 'user', content: [] } }, 'item.content', 'non-empty array'],
      [{ item: { type: 'message', role: 'user', content: [{ type: 'text', text: 'x' }] } }, 'item.content[0].type', 'must be "input_text" or "input_audio" for a user message'],
      [{ item: { type: 'message', role: 'assistant', content: [{ type: 'input_text', text: 'x' }] } }, 'item.content[0].type', 'assistant history seeding'],
      [{ item: { type: 'message', role: 'user', content: [{ type: 'input_audio', audio: 'AAAA' }] } }, 'item.content[0].audio', 'audio/pcm is 16-bit samples'],
      [{ item: { type: 'function_call', name: 'f', arguments: '{}' } }, 'item.call_id', 'a function_call has call_id, name and arguments'],
      [{ item: { type: 'function_call_output', call_id: 'call_nope', output: 'x' } }, 'item.call_id', 'No function_call with call_id call_nope'],
      [{ item: { type: 'force_message', content: [] } }, 'item.type', 'not supported by the sandbox'],
      [{ item: { type: 'picture' } }, 'item.type', 'must be "message", "function_call" or "function_call_output"'],
      [{ previous_item_id: 'item_nope', item: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'x' }] } }, 'previous_item_id', 'is not an item of the conversation'],
      [{}, 'item', "Missing required parameter: 'item'."],
    ];
    for (const [i, [fields, param, message]] of cases.entries()) {
      c.send({ type: 'conversation.item.create', event_id: `evt_${i}`, ...fields });
      const err = await c.until('error', i + 1);
      expect({ i, param: err.error.param, event: err.error.event_id }).toEqual({ i, param, event: `evt_${i}` });
      expect(err.error.message, JSON.stringify(fields)).toContain(message);
    }
    const id = c.events.find((e) => e.type === 'conversation.item.added')?.item.id;
    c.send({ type: 'conversation.item.create', item: { id, type: 'message', role: 'user', content: [{ type: 'input_text', text: 'dup' }] } });
    expect((await c.until('error', cases.length + 1)).error.message).toContain('is already in the conversation');
    expect(c.events.filter((e) => e.type === 'conversation.item.added')).toHaveLength(1);
    c.close();
  });
});
