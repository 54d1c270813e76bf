/**
 * TEST HOOK, off by default: with `WORKBENCH_TEST_AUDIO_INPUT=<ms>:<silence|quiet>` in the media
 * process's environment, its native inputs (naudiodon) are paced to real time and bounded to
 * <ms> of the device's audio, then give silence or go quiet (main/audio/paced-input.ts). It exists
 * for ALSA's `file` device (test/audio, test/bench): that device reads its infile as fast as asked
 * and returns garbage past its end. Unset, the media process uses naudiodon as it is.
 */
import type { AudioResult } from '../../shared/audio/errors';
import { createNaudiodonBackend } from '../audio/naudiodon-backend';
import { paceInputs } from '../audio/paced-input';
import type { AudioBackend } from '../audio/types';
import type { LoadAudioBackend } from './audio-devices';

export const AUDIO_INPUT_ENV = 'WORKBENCH_TEST_AUDIO_INPUT';

/** The backend loader the hook asks for, or undefined (the default: naudiodon unchanged). */
export function testAudioBackend(env: Record<string, string | undefined>, log: (line: string) => void): LoadAudioBackend | undefined {
  const raw = env[AUDIO_INPUT_ENV];
  if (raw === undefined || raw === '') return undefined;
  const match = /^(\d{1,7}):(silence|quiet)$/.exec(raw);
  if (!match) {
    log(`${AUDIO_INPUT_ENV}=${raw} ignored: it is <ms>:silence or <ms>:quiet`);
    return undefined;
  }
  const boundMs = Number(match[1]);
  const after = match[2] as 'silence' | 'quiet';
  log(`TEST HOOK: ${AUDIO_INPUT_ENV}=${raw}: native inputs are paced to real time, ${boundMs} ms of device audio, then ${after}`);
  return async (): Promise<AudioResult<AudioBackend>> => {
    const backend = await createNaudiodonBackend();
    return backend.ok ? { ok: true, value: paceInputs(backend.value, { boundMs, after }) } : backend;
  };
}
