/**
 * The `audio` family of the fake workbench: the native device list the media process would give
 * (`audio.devices`) and its hot-plug event, set by the test.
 */
import type { FamilyApi } from '../../shared/contract/api';
import type { audioContract, NativeAudioDevices } from '../../shared/contract/audio';

export interface FakeAudioControls {
  /** What `audio.devices` answers now. */
  devices: NativeAudioDevices;
  /** Replaces the list and emits `audio.devicesChanged` (a device plugged in or pulled out). */
  plug(devices: NativeAudioDevices): void;
}

/** A machine with one native microphone and one output, both the default. */
export const ONE_NATIVE_MIC: NativeAudioDevices = {
  devices: [
    { id: 'ALSA:USB Mic', name: 'USB Mic', hostApi: 'ALSA', inputChannels: 1, outputChannels: 0, defaultSampleRate: 48000 },
    { id: 'ALSA:Speakers', name: 'Speakers', hostApi: 'ALSA', inputChannels: 0, outputChannels: 2, defaultSampleRate: 48000 },
  ],
  defaultInputId: 'ALSA:USB Mic',
  defaultOutputId: 'ALSA:Speakers',
  problem: null,
};

export function createFakeAudio(record: (method: string, input: unknown) => void, initial: NativeAudioDevices = ONE_NATIVE_MIC): { api: FamilyApi<typeof audioContract>; controls: FakeAudioControls } {
  const listeners = new Set<(d: NativeAudioDevices) => void>();
  const controls: FakeAudioControls = {
    devices: structuredClone(initial),
    plug(devices) {
      controls.devices = structuredClone(devices);
      for (const l of listeners) l(structuredClone(devices));
    },
  };
  const api: FamilyApi<typeof audioContract> = {
    devices: async (input) => (record('audio.devices', input), structuredClone(controls.devices)),
    onDevicesChanged: (cb) => {
      listeners.add(cb);
      return () => listeners.delete(cb);
    },
  };
  return { api, controls };
}
