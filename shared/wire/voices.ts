/**
 * The service's built-in (first-party preset) voices: the ids text-to-speech, realtime and video
 * `reference_audios` accept (wire-notes §2 and §4: the documented core five). Custom voices are
 * not presets and are not listed here.
 */

export interface PresetVoice {
  id: string;
  name: string;
}

export const PRESET_VOICES: readonly PresetVoice[] = [
  { id: 'eve', name: 'Eve' },
  { id: 'ara', name: 'Ara' },
  { id: 'leo', name: 'Leo' },
  { id: 'rex', name: 'Rex' },
  { id: 'sal', name: 'Sal' },
];
