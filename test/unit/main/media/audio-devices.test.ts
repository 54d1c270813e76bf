// The media process answers `devices` from its audio backend (naudiodon in the app; the paced
// device here), pushes hot-plug as `devices-changed`, and explains a library that cannot load.
import { afterEach, describe, expect, it } from 'vitest';
import { MediaProcess, type ControlPort } from '../../../../main/media/media-process';
import { z } from 'zod';
import { defineKind, SessionKinds } from '../../../../main/media/session-kinds';
import { createPacedBackend } from '../../../../main/audio/paced-backend';
import type { LoadAudioBackend } from '../../../../main/media/audio-devices';
import type { FromMedia } from '../../../../main/media/protocol';

let media: MediaProcess | null = null;
afterEach(async () => {
  await media?.dispose();
  media = null;
});

function run(load: LoadAudioBackend, kinds = new SessionKinds()) {
  const sent: FromMedia[] = [];
  let deliver: (m: unknown) => void = () => {};
  const control: ControlPort = { send: (m) => sent.push(m), onMessage: (l) => void (deliver = (m) => l(m, [])) };
  let loads = 0;
  media = new MediaProcess({ control, kinds, audioBackend: () => (loads++, load()), devicePollMs: 20 });
  const ask = async (id: number) => {
    deliver({ t: 'devices', id });
    for (let i = 0; i < 200; i++) {
      const reply = sent.find((m) => m.t === 'reply' && m.id === id);
      if (reply) return reply;
      await new Promise((r) => setTimeout(r, 5));
    }
    throw new Error('no reply');
  };
  return { sent, ask, loads: () => loads, deliver: (m: unknown) => deliver(m) };
}

const silence = new Int16Array(960);

describe('the media process lists native audio devices', () => {
  it('answers the list with channel counts, rates and defaults, then pushes a device plugged in and pulled out', async () => {
    const backend = createPacedBackend({ inputs: [{ name: 'USB Mic', sampleRate: 48000, channels: 1, source: silence }], outputs: [{ name: 'Speakers', sampleRate: 44100, channels: 2 }] });
    const { sent, ask, loads } = run(async () => ({ ok: true, value: backend }));
    const reply = await ask(1);
    expect(reply).toEqual({
      t: 'reply',
      id: 1,
      reply: {
        ok: true,
        value: {
          devices: [
            { id: 'Paced:USB Mic', name: 'USB Mic', hostApi: 'Paced', inputChannels: 1, outputChannels: 0, defaultSampleRate: 48000 },
            { id: 'Paced:Speakers', name: 'Speakers', hostApi: 'Paced', inputChannels: 0, outputChannels: 2, defaultSampleRate: 44100 },
          ],
          defaultInputId: 'Paced:USB Mic',
          defaultOutputId: 'Paced:Speakers',
          problem: null,
        },
      },
    });
    backend.plug({ input: { name: 'Headset', sampleRate: 16000, channels: 1, source: silence } });
    const changed = async (n: number) => {
      for (let i = 0; i < 200 && sent.filter((m) => m.t === 'devices-changed').length < n; i++) await new Promise((r) => setTimeout(r, 10));
      return sent.filter((m) => m.t === 'devices-changed') as Extract<FromMedia, { t: 'devices-changed' }>[];
    };
    expect((await changed(1))[0].devices.devices.map((d) => d.name)).toEqual(['USB Mic', 'Speakers', 'Headset']);
    backend.unplug('USB Mic');
    const after = (await changed(2))[1].devices;
    expect(after.devices.map((d) => d.name)).toEqual(['Speakers', 'Headset']);
    expect(after.defaultInputId).not.toBe('Paced:USB Mic');
    await ask(2);
    expect(loads()).toBe(1);
  });

  it('answers why there is no list when the native library cannot load', async () => {
    const { ask } = run(async () => ({ ok: false, error: { code: 'device_error', message: 'The native audio library could not load: libasound.so.2: cannot open shared object file' } }));
    const reply = await ask(1);
    expect(reply).toMatchObject({ reply: { ok: true, value: { devices: [], defaultInputId: null, defaultOutputId: null, problem: 'Native audio devices are unavailable: The native audio library could not load: libasound.so.2: cannot open shared object file' } } });
  });

  it('holds the hot-plug polls while a session runs (a poll blocks the loop a PortAudio initialisation long) and pushes what changed once it ends', async () => {
    const backend = createPacedBackend({ inputs: [{ name: 'USB Mic', sampleRate: 48000, channels: 1, source: silence }] });
    let listings = 0;
    const counted = { ...backend, listDevices: () => (listings++, backend.listDevices()) };
    const kinds = new SessionKinds().register(defineKind({ kind: 'idle', options: z.object({}).strict(), start: async () => ({ stop() {} }) }));
    const { sent, ask, deliver } = run(async () => ({ ok: true, value: counted }), kinds);
    await ask(1);
    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
    deliver({ t: 'start', id: 2, sessionId: 's1', kind: 'idle', options: {} });
    await ask(3); // the start's reply comes before this one
    expect(sent.find((m) => m.t === 'reply' && m.id === 2)).toMatchObject({ reply: { ok: true } });
    const before = listings;
    backend.plug({ input: { name: 'Headset', sampleRate: 16000, channels: 1, source: silence } });
    await sleep(200); // ten poll periods
    expect(listings).toBe(before);
    expect(sent.filter((m) => m.t === 'devices-changed')).toEqual([]);
    // A question mid-session gets the last list read, without a PortAudio listing.
    const mid = await ask(5);
    expect(listings).toBe(before);
    expect(mid).toMatchObject({ reply: { ok: true, value: { devices: [{ name: 'USB Mic' }], problem: null } } });
    deliver({ t: 'stop', id: 4, sessionId: 's1' });
    for (let i = 0; i < 200 && !sent.some((m) => m.t === 'devices-changed'); i++) await sleep(10);
    const changed = sent.filter((m) => m.t === 'devices-changed') as Extract<FromMedia, { t: 'devices-changed' }>[];
    expect(changed[0].devices.devices.map((d) => d.name)).toEqual(['USB Mic', 'Headset']);
  });
});
