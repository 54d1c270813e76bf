/**
 * What a long text means for the person waiting (pure). Speech runs at about
 * SPEECH_SECONDS_PER_CHAR of audio per character (measured on the sandbox: eve, English prose,
 * 0.055 s a character, test/bench/tts-long-rest.ts), so 60,000 characters are about 55 minutes of
 * speech. Over REST nothing arrives until all of it is made: the sandbox made a 3,000-character
 * MP3 in 94 s (33 ms a character with lamejs, load 17; PCM 9.5 ms), so 60,000 characters would
 * take about half an hour. The playground says so before sending, counts the time while it waits,
 * and explains what Stop keeps.
 */
export const SPEECH_SECONDS_PER_CHAR = 0.055;
/** Speech longer than this (about 2,200 characters) is long enough to warn about over REST. */
export const LONG_SPEECH_SECONDS = 120;

export function estimatedSpeechSeconds(chars: number, speed = 1): number {
  return (chars * SPEECH_SECONDS_PER_CHAR) / (speed > 0 ? speed : 1);
}

/** `m:ss` (or `h:mm:ss`) for a wait or a length. */
export function formatWait(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/** About how much speech, said for a person ("about 55 minutes", "about 40 seconds"). */
export function speechLengthSaid(seconds: number): string {
  if (seconds < 90) return `about ${Math.max(1, Math.round(seconds))} seconds`;
  const minutes = Math.round(seconds / 60);
  return minutes < 90 ? `about ${minutes} minutes` : `about ${Math.round((seconds / 3600) * 10) / 10} hours`;
}

/** The note shown before a long text is sent over REST (null: short enough not to matter, or streaming). */
export function longRestNote(chars: number, speed: number, mode: 'rest' | 'stream', codec: string): string | null {
  const seconds = estimatedSpeechSeconds(chars, speed);
  if (mode !== 'rest' || seconds < LONG_SPEECH_SECONDS) return null;
  const slow = codec === 'mp3' ? ' MP3 is the slowest to make.' : '';
  return `This is ${speechLengthSaid(seconds)} of speech. Over REST nothing arrives until all of it is made, which can take many minutes;${slow} Stop cancels, but keeps nothing. Streaming plays from the first clause and keeps what arrived if you stop.`;
}
