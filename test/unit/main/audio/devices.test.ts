import { afterEach, describe, expect, it } from 'vitest';
import { DeviceWatcher, type DeviceChange } from '../../../../main/audio/devices';
import { createPacedBackend } from '../../../../main/audio/paced-backend';
import type { AudioBackend } from '../../../../main/audio/types';
import { assignIds } from '../../../../main/audio/types';

const watchers: DeviceWatcher[] = [];
afterEach(() => watchers.splice(0).forEach((w) => w.dispose()));

function watch(backend: AudioBackend): { watcher: DeviceWatcher; changes: DeviceChange[] } {
  const watcher = new DeviceWatcher(backend, 60_000); // polled by hand below
  watchers.push(watcher);
  const changes: DeviceChange[] = [];
  watcher.onChange((c) => changes.push(c));
  return { watcher, changes };
}

describe('DeviceWatcher', () => {
  it('lists devices with their defaults', () => {
    const backend = createPacedBackend({
      outputs: [{ name: 'speaker', sampleRate: 48000, channels: 2 }],
      inputs: [{ name: 'mic', sampleRate: 16000, channels: 1, source: new Int16Array(0) }],
    });
    const { watcher } = watch(backend);
    expect(watcher.list).toEqual({
      devices: [
        { id: 'Paced:mic', index: 0, name: 'mic', hostApi: 'Paced', maxInputChannels: 1, maxOutputChannels: 0, defaultSampleRate: 16000 },
        { id: 'Paced:speaker', index: 1, name: 'speaker', hostApi: 'Paced', maxInputChannels: 0, maxOutputChannels: 2, defaultSampleRate: 48000 },
      ],
      defaultInputId: 'Paced:mic',
      defaultOutputId: 'Paced:speaker',
    });
  });

  it('reports a device plugged in and one pulled out, with the defaults moving', () => {
    const backend = createPacedBackend({ inputs: [{ name: 'built-in', sampleRate: 48000, channels: 2, source: new Int16Array(0) }] });
    const { watcher, changes } = watch(backend);
    backend.plug({ input: { name: 'usb', sampleRate: 16000, channels: 1, source: new Int16Array(0) } });
    watcher.poll();
    watcher.poll(); // nothing changed: no report
    backend.unplug('built-in');
    watcher.poll();
    expect(changes.map((c) => ({ added: c.added.map((d) => d.name), removed: c.removed.map((d) => d.name), defaultsChanged: c.defaultsChanged, defaultInput: c.list.defaultInputId }))).toEqual([
      { added: ['usb'], removed: [], defaultsChanged: false, defaultInput: 'Paced:built-in' },
      { added: [], removed: ['built-in'], defaultsChanged: true, defaultInput: 'Paced:usb' },
    ]);
  });

  it('reports a listing failure once, as a value', () => {
    let fail = false;
    const inner = createPacedBackend();
    const backend: AudioBackend = {
      ...inner,
      listDevices: () => (fail ? { ok: false, error: { code: 'device_error', message: 'PortAudio could not start' } } : inner.listDevices()),
    };
    const { watcher } = watch(backend);
    const errors: string[] = [];
    watcher.onError((e) => errors.push(e.message));
    fail = true;
    watcher.poll();
    watcher.poll();
    expect(errors).toEqual(['PortAudio could not start']);
    expect(watcher.list).toEqual({ devices: [], defaultInputId: null, defaultOutputId: null });
  });
});

describe('assignIds()', () => {
  it('numbers devices that share a name, so each keeps an id', () => {
    const base = { index: 0, hostApi: 'ALSA', maxInputChannels: 1, maxOutputChannels: 0, defaultSampleRate: 48000 };
    expect(assignIds([{ ...base, name: 'USB Audio' }, { ...base, name: 'USB Audio' }, { ...base, name: 'default' }]).map((d) => d.id)).toEqual([
      'ALSA:USB Audio',
      'ALSA:USB Audio#2',
      'ALSA:default',
    ]);
  });
});
