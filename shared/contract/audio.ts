/**
 * Native audio devices: what main/audio sees, listed in the media process (naudiodon loads there
 * and nowhere else; see main/media/README.md). The page's own devices (navigator.mediaDevices)
 * are listed by the page itself (renderer/src/audio/page-devices.ts); the device picker shows both.
 */
import { z } from 'zod';
import { call, event } from './define';

export const NativeAudioDeviceSchema = z
  .object({
    /** Stable while plugged in (host API and name); what a native source or sink names. */
    id: z.string().min(1).max(300),
    name: z.string().max(300),
    hostApi: z.string().max(100),
    inputChannels: z.number().int().nonnegative(),
    outputChannels: z.number().int().nonnegative(),
    defaultSampleRate: z.number().nonnegative(),
  })
  .strict();
export type NativeAudioDevice = z.infer<typeof NativeAudioDeviceSchema>;

export const NativeAudioDevicesSchema = z
  .object({
    devices: z.array(NativeAudioDeviceSchema).max(512),
    defaultInputId: z.string().max(300).nullable(),
    defaultOutputId: z.string().max(300).nullable(),
    /**
     * Why no device can be listed (the native audio library did not load, listing failed), in
     * words a person can act on; null when the list is what the system has (possibly empty).
     */
    problem: z.string().max(1000).nullable(),
  })
  .strict();
export type NativeAudioDevices = z.infer<typeof NativeAudioDevicesSchema>;

export const audioContract = {
  /** The native devices now (the media process lists them; it also starts watching for hot-plug). */
  devices: call<NativeAudioDevices>()(z.object({}).strict().optional()),
  /** A native device came or went, or a default changed (pushed once `devices` has been asked). */
  devicesChanged: event<NativeAudioDevices>(),
};

/**
 * Where audio comes from or goes to, as the device picker gives it: the page's own device
 * (the browser's microphone or speakers), or a native device through the media process
 * (`device` absent: the system default). A page device is a MediaDeviceInfo.deviceId (absent: the
 * page's default), a native one an `audio.devices` id.
 */
export type AudioDeviceChoice = { kind: 'page'; device?: string } | { kind: 'native'; device?: string };
