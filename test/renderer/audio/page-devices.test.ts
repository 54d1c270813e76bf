import { describe, expect, it } from 'vitest';
import { listPageDevices, watchPageDevices, type PageDeviceChange } from '@/audio/page-devices';

function info(kind: MediaDeviceKind, deviceId: string, label: string, groupId = deviceId): MediaDeviceInfo {
  return { kind, deviceId, label, groupId, toJSON: () => ({}) } as MediaDeviceInfo;
}

/** A fake navigator.mediaDevices whose list the test changes, firing devicechange. */
function fakeMedia(initial: MediaDeviceInfo[]) {
  let list = initial;
  const target = new EventTarget();
  return {
    enumerateDevices: async () => list,
    addEventListener: target.addEventListener.bind(target),
    removeEventListener: target.removeEventListener.bind(target),
    set(next: MediaDeviceInfo[]) {
      list = next;
      target.dispatchEvent(new Event('devicechange'));
    },
  } as unknown as MediaDevices & { set(next: MediaDeviceInfo[]): void };
}

const CHROMIUM = [
  info('audioinput', 'default', 'Default - USB Headset', 'g-usb'),
  info('audioinput', 'mic-1', 'Built-in Microphone', 'g-int'),
  info('audioinput', 'mic-2', 'USB Headset', 'g-usb'),
  info('audiooutput', 'default', 'Default - Speakers', 'g-int'),
  info('audiooutput', 'out-1', 'Speakers', 'g-int'),
  info('videoinput', 'cam', 'Camera'),
];

describe('listPageDevices()', () => {
  it('lists inputs and outputs, resolving Chromium\'s "default" pseudo-device to the real one', async () => {
    expect(await listPageDevices(fakeMedia(CHROMIUM))).toEqual({
      devices: [
        { id: 'mic-1', kind: 'input', name: 'Built-in Microphone' },
        { id: 'mic-2', kind: 'input', name: 'USB Headset' },
        { id: 'out-1', kind: 'output', name: 'Speakers' },
      ],
      defaultInputId: 'mic-2',
      defaultOutputId: 'out-1',
      labelled: true,
    });
  });

  it('names devices by number before microphone access is granted (labels are empty)', async () => {
    const list = await listPageDevices(fakeMedia([info('audioinput', 'a', ''), info('audioinput', 'b', '')]));
    expect(list).toEqual({
      devices: [
        { id: 'a', kind: 'input', name: 'Microphone 1' },
        { id: 'b', kind: 'input', name: 'Microphone 2' },
      ],
      defaultInputId: 'a',
      defaultOutputId: null,
      labelled: false,
    });
  });
});

describe('watchPageDevices()', () => {
  it('reports a headset unplugged and plugged back, and nothing after dispose', async () => {
    const media = fakeMedia(CHROMIUM);
    const changes: PageDeviceChange[] = [];
    const dispose = watchPageDevices(media, (c) => changes.push(c));
    const without = [info('audioinput', 'default', 'Default - Built-in Microphone', 'g-int'), CHROMIUM[1], CHROMIUM[3], CHROMIUM[4]];
    media.set(without);
    await new Promise((r) => setTimeout(r, 0));
    media.set(CHROMIUM);
    await new Promise((r) => setTimeout(r, 0));
    dispose();
    media.set(without);
    await new Promise((r) => setTimeout(r, 0));
    expect(changes.map((c) => ({ added: c.added.map((d) => d.id), removed: c.removed.map((d) => d.id), defaultInput: c.list.defaultInputId }))).toEqual([
      { added: [], removed: ['mic-2'], defaultInput: 'mic-1' },
      { added: ['mic-2'], removed: [], defaultInput: 'mic-2' },
    ]);
  });
});
