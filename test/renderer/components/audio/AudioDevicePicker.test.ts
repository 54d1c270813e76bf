// The device picker: this page's device and each native one (audio.devices), v-model as an
// AudioDeviceChoice, hot-plug followed, a vanished choice shown as such, a clear note with none.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { flushPromises, mount, type VueWrapper } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { defineComponent, h, ref } from 'vue';
import type { AudioDeviceChoice, NativeAudioDevices } from '@shared/contract/audio';
import { provideWorkbench } from '@/api';
import AudioDevicePicker from '@/components/audio/AudioDevicePicker.vue';
import { useAudioDevicesStore } from '@/stores/audio-devices';
import { createFakeWorkbench, type FakeWorkbench } from '../../fake-workbench';
import { ONE_NATIVE_MIC } from '../../fake-audio';

let api: FakeWorkbench;
let wrapper: VueWrapper;
const value = ref<AudioDeviceChoice>({ kind: 'page' });

function mountPicker(kind: 'input' | 'output' = 'input', devices?: NativeAudioDevices): VueWrapper {
  api = createFakeWorkbench(devices ? { nativeDevices: devices } : {});
  provideWorkbench(api);
  setActivePinia(createPinia());
  const Host = defineComponent(() => () => h(AudioDevicePicker, { kind, modelValue: value.value, 'onUpdate:modelValue': (v: AudioDeviceChoice) => (value.value = v) }));
  wrapper = mount(Host, { attachTo: document.body });
  return wrapper;
}
const select = () => wrapper.get<HTMLSelectElement>('select');
const labels = () => select().findAll('option').map((o) => o.text());

beforeEach(() => (value.value = { kind: 'page' }));
afterEach(() => {
  wrapper?.unmount();
  document.body.innerHTML = '';
});

describe('AudioDevicePicker', () => {
  it('offers this page’s microphone, the system default and each native input, and sets the v-model', async () => {
    mountPicker('input');
    await flushPromises();
    expect(api.controls.calls.some((c) => c.method === 'audio.devices')).toBe(true);
    expect(labels()).toEqual(['This page’s microphone', 'System default microphone (USB Mic)', 'USB Mic — ALSA, 1 ch, 48 kHz']);
    // Labelled for assistive technology.
    expect(wrapper.get(`label[for="${select().attributes('id')}"]`).text()).toBe('Microphone');
    await select().setValue('native:ALSA:USB Mic');
    expect(value.value).toEqual({ kind: 'native', device: 'ALSA:USB Mic' });
    await select().setValue('native:');
    expect(value.value).toEqual({ kind: 'native' });
    await select().setValue('page');
    expect(value.value).toEqual({ kind: 'page' });
  });

  it('lists each page microphone by name once the page may use the microphone, and the choice carries its device id', async () => {
    const info = (kind: MediaDeviceKind, deviceId: string, label: string, groupId = deviceId) => ({ kind, deviceId, label, groupId, toJSON: () => ({}) }) as MediaDeviceInfo;
    // Before permission: ids with blank labels (as browsers give them); after: the names.
    let granted = false;
    const list = () => [
      info('audioinput', 'default', granted ? 'Default - USB Headset' : '', 'g-usb'),
      info('audioinput', 'mic-int', granted ? 'Built-in Microphone' : '', 'g-int'),
      info('audioinput', 'mic-usb', granted ? 'USB Headset' : '', 'g-usb'),
      info('audiooutput', 'out-1', granted ? 'Speakers' : '', 'g-int'),
    ];
    const target = new EventTarget();
    const media = { enumerateDevices: async () => list(), addEventListener: target.addEventListener.bind(target), removeEventListener: target.removeEventListener.bind(target) };
    Object.defineProperty(navigator, 'mediaDevices', { value: media, configurable: true });
    try {
      mountPicker('input');
      await flushPromises();
      expect(labels()).toEqual(['This page’s microphone', 'System default microphone (USB Mic)', 'USB Mic — ALSA, 1 ch, 48 kHz']);
      granted = true;
      // Capture started in the page (the permission granted): the names are fetched again.
      useAudioDevicesStore().pageAllowed();
      await flushPromises();
      expect(labels()).toEqual(['This page’s microphone (USB Headset)', 'Built-in Microphone (this page)', 'USB Headset (this page)', 'System default microphone (USB Mic)', 'USB Mic — ALSA, 1 ch, 48 kHz']);
      await select().setValue('page:mic-int');
      expect(value.value).toEqual({ kind: 'page', device: 'mic-int' });
      await select().setValue('page');
      expect(value.value).toEqual({ kind: 'page' });
    } finally {
      Object.defineProperty(navigator, 'mediaDevices', { value: undefined, configurable: true });
    }
  });

  it('lists output devices for kind output', async () => {
    mountPicker('output');
    await flushPromises();
    expect(labels()).toEqual(['This page’s speakers', 'System default speakers (Speakers)', 'Speakers — ALSA, 2 ch, 48 kHz']);
  });

  it('follows a device plugged in and says so when the chosen one is pulled out', async () => {
    value.value = { kind: 'native', device: 'ALSA:USB Mic' };
    mountPicker('input');
    await flushPromises();
    expect(wrapper.find('[data-test="audio-device-missing"]').exists()).toBe(false);
    const headset = { id: 'ALSA:Headset', name: 'Headset', hostApi: 'ALSA', inputChannels: 2, outputChannels: 2, defaultSampleRate: 44100 };
    api.controls.audio.plug({ ...ONE_NATIVE_MIC, devices: [...ONE_NATIVE_MIC.devices, headset] });
    await flushPromises();
    expect(labels()).toContain('Headset — ALSA, 2 ch, 44.1 kHz');
    api.controls.audio.plug({ devices: [headset], defaultInputId: 'ALSA:Headset', defaultOutputId: 'ALSA:Headset', problem: null });
    await flushPromises();
    // The choice is not silently moved to another device.
    expect(value.value).toEqual({ kind: 'native', device: 'ALSA:USB Mic' });
    expect(select().element.value).toBe('native:ALSA:USB Mic');
    expect(labels()).toContain('ALSA:USB Mic (not connected)');
    expect(wrapper.get('[data-test="audio-device-missing"]').text()).toContain('not connected');
  });

  it('explains when no native device exists, and why when the library could not load', async () => {
    mountPicker('input', { devices: [], defaultInputId: null, defaultOutputId: null, problem: null });
    await flushPromises();
    expect(labels()).toEqual(['This page’s microphone']);
    expect(wrapper.get('[data-test="audio-device-none"]').text()).toBe('No native microphone was found. Plug one in (it appears here by itself), or use this page’s microphone.');
    wrapper.unmount();
    mountPicker('input', { devices: [], defaultInputId: null, defaultOutputId: null, problem: 'Native audio devices are unavailable: The native audio library could not load: libasound.so.2: cannot open shared object file' });
    await flushPromises();
    expect(wrapper.get('[data-test="audio-device-none"]').text()).toContain('libasound.so.2');
  });
});
