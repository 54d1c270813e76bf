/** The native audio layer, for the media process: backends, the device watcher, capture, playback, recording. */
export type { AudioBackend, AudioDevice, DeviceList, InputStream, OpenOptions, OutputStream } from './types';
export { createNaudiodonBackend } from './naudiodon-backend';
export { createPacedBackend, type PacedBackend, type PacedBackendOptions } from './paced-backend';
export { DeviceWatcher, type DeviceChange } from './devices';
export { Capture, type CaptureFrame, type CaptureOptions, type CaptureStats } from './capture';
export { Playback, type PlaybackOptions, type PlaybackStats } from './playback';
export { WavRecorder } from './wav-recorder';
