/**
 * Where a position in the audio we sent falls on the media clock. The service counts the
 * microphone audio it received (`audio_start_ms` / `audio_end_ms` on `speech_started` /
 * `speech_stopped`); each piece of audio was captured at a known media time. So the end of the
 * user's speech is put where that sample was captured, not where the service's event arrived
 * (which adds the network, the silence the VAD waits for and its processing).
 *
 * Anchors: (samples entered before a piece, the piece's capture time), kept for the last
 * `keepMs` of audio; a position older than that (or ahead of what was captured) maps to null.
 */

export interface InputClock {
  /** `samples` were captured at media time `at` (in order, as they enter the sender). */
  captured(samples: number, at: number): void;
  /** Media time of the sample `ms` into the audio sent on this socket, or null when unknown. */
  timeOf(ms: number): number | null;
}

export function inputClock(rate: number, keepMs = 120_000): InputClock {
  const anchors: Array<{ sample: number; at: number }> = [];
  let total = 0;
  const keepSamples = Math.round((keepMs * rate) / 1000);
  return {
    captured(samples, at) {
      if (samples <= 0) return;
      anchors.push({ sample: total, at });
      total += samples;
      while (anchors.length > 1 && anchors[1]!.sample < total - keepSamples) anchors.shift();
    },
    timeOf(ms) {
      if (!Number.isFinite(ms) || ms < 0) return null;
      const sample = Math.round((ms * rate) / 1000);
      if (anchors.length === 0 || sample < anchors[0]!.sample || sample > total) return null;
      // The last anchor at or before the sample (binary search: anchors grow with the call).
      let lo = 0;
      let hi = anchors.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (anchors[mid]!.sample <= sample) lo = mid;
        else hi = mid - 1;
      }
      const a = anchors[lo]!;
      return a.at + ((sample - a.sample) * 1000) / rate;
    },
  };
}
