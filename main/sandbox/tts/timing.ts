/**
 * Character times inside one synthesised chunk (a sentence). eSpeak's command line reports no word
 * events, so times come from the audio itself: the voiced span (silence measured off both ends)
 * and the pauses eSpeak makes at clause punctuation (`, ; :` and a sentence end inside the chunk).
 * When the audio has at least as many pauses as the text has clause marks, each clause gets the
 * speech between its pauses (the mark and the spaces after it take the pause); otherwise the whole
 * span is shared. Within a stretch, characters share it by weight: letters 1, spaces 0.5, other
 * marks 0.3. Times never decrease and stay inside the chunk.
 */

const FRAME_SECONDS = 0.01;
/** A pause: this long below the threshold, inside the voiced span. */
const MIN_PAUSE_SECONDS = 0.06;

function weightOf(ch: string): number {
  if (/[\p{L}\p{N}]/u.test(ch)) return 1;
  if (/\s/.test(ch)) return 0.5;
  return 0.3;
}

/** 10 ms frame peaks and the threshold between speech and silence (4% of the loudest frame). */
function frames(samples: Float32Array, rate: number): { levels: number[]; threshold: number; frame: number } {
  const frame = Math.max(1, Math.round(rate * FRAME_SECONDS));
  const levels: number[] = [];
  for (let i = 0; i < samples.length; i += frame) {
    let peak = 0;
    for (let k = i; k < Math.min(samples.length, i + frame); k++) peak = Math.max(peak, Math.abs(samples[k]));
    levels.push(peak);
  }
  return { levels, threshold: Math.max(0, ...levels) * 0.04, frame };
}

/** Shares [from, to] among `chars` by weight; appends to `out`. */
function share(chars: string[], from: number, to: number, out: Array<[number, number]>): void {
  const weights = chars.map(weightOf);
  const total = weights.reduce((a, b) => a + b, 0) || 1;
  let acc = 0;
  for (const w of weights) {
    const t0 = from + ((to - from) * acc) / total;
    acc += w;
    out.push([t0, from + ((to - from) * acc) / total]);
  }
}

/** `[start, end]` seconds from the chunk's first sample, per character of `text`. */
export function timeCharacters(text: string, samples: Float32Array, rate: number): Array<[number, number]> {
  const chars = [...text];
  const { levels, threshold, frame } = frames(samples, rate);
  const first = levels.findIndex((l) => l > threshold);
  let last = levels.length - 1;
  while (last > first && levels[last] <= threshold) last--;
  const spanStart = first < 0 ? 0 : (first * frame) / rate;
  const spanEnd = first < 0 ? samples.length / rate : Math.min(samples.length, (last + 1) * frame) / rate;

  // Pauses inside the voiced span, longest first.
  const pauses: Array<[number, number]> = [];
  for (let i = Math.max(0, first); i <= last; ) {
    if (levels[i] > threshold) {
      i++;
      continue;
    }
    let j = i;
    while (j <= last && levels[j] <= threshold) j++;
    if ((j - i) * FRAME_SECONDS >= MIN_PAUSE_SECONDS) pauses.push([(i * frame) / rate, (j * frame) / rate]);
    i = j;
  }
  // Clause marks: a mark followed by a space, with speech after it (not the chunk's final mark).
  const marks: number[] = [];
  for (let i = 0; i < chars.length - 1; i++) {
    if (/[,;:.!?\u2014]/.test(chars[i]) && /\s/.test(chars[i + 1]) && chars.slice(i + 1).some((c) => /[\p{L}\p{N}]/u.test(c))) marks.push(i);
  }
  const out: Array<[number, number]> = [];
  if (marks.length === 0 || pauses.length < marks.length) {
    share(chars, spanStart, spanEnd, out);
    return out;
  }
  const chosen = [...pauses].sort((a, b) => b[1] - b[0] - (a[1] - a[0])).slice(0, marks.length).sort((a, b) => a[0] - b[0]);
  let from = 0;
  let at = spanStart;
  marks.forEach((mark, k) => {
    // The clause up to its mark speaks until the pause; the mark and following spaces take the pause.
    let end = mark + 1;
    while (end < chars.length && /\s/.test(chars[end])) end++;
    share(chars.slice(from, mark), at, chosen[k][0], out);
    share(chars.slice(mark, end), chosen[k][0], chosen[k][1], out);
    from = end;
    at = chosen[k][1];
  });
  share(chars.slice(from), at, spanEnd, out);
  return out;
}
