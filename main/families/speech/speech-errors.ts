/** What a speech run tells a person when it fails, and the wire facts both transports share. */
import { toWorkbenchError, type ApiError } from '../../api/errors';
import type { WorkbenchError } from '../../../shared/contract/errors';
import type { SpeechFields } from '../../../shared/families/speech/contract';
import { TTS_CONTENT_TYPES } from '../../../shared/wire/tts';
import { PRESET_VOICES } from '../../../shared/wire/voices';

/** An error about the voice made actionable: which voice, and where the valid ones are. */
export function explainSpeechError(e: ApiError, voice: string): WorkbenchError {
  const out = toWorkbenchError(e);
  const aboutVoice = /voice/i.test(e.message) && (e.status === 400 || e.status === 404 || e.status === 422 || e.status === null);
  if (aboutVoice && (e.status === 404 || /not found|unknown|no such|does not exist/i.test(e.message))) {
    const builtIn = PRESET_VOICES.map((v) => v.id).join(', ');
    return { ...out, message: `The service has no voice "${voice}": choose a built-in voice (${builtIn}) or one of your custom voices from the list. (${e.message})` };
  }
  return out;
}

/** The Content-Type of a streamed utterance's codec. */
export function streamedContentType(codec: SpeechFields['codec']): string {
  return TTS_CONTENT_TYPES[codec];
}
