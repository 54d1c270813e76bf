/**
 * `revised_prompt`: the prompt as the service says it understood it. Deterministic: the prompt
 * made into a sentence, plus style, light and framing details picked by the image's seed, so the
 * same request gives the same text and a test can see it was rewritten (it always ends with
 * "(synthetic sandbox image)").
 */
import { Rng } from '../generate/rng';

const STYLES = ['a soft digital painting', 'a flat vector illustration', 'a gouache poster', 'a wide matte painting', 'a calm minimalist landscape'];
const LIGHT = ['in warm evening light', 'under a clear, even light', 'with long soft shadows', 'in hazy morning light', 'with a gentle glow on the horizon'];
const FRAMING = ['layered hills leading the eye to the horizon', 'a low horizon and a wide sky', 'balanced shapes and smooth gradients', 'a centred, symmetrical composition'];

function sentence(prompt: string): string {
  const text = prompt.replace(/\s+/g, ' ').trim();
  const first = text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?]$/.test(first) ? first : `${first}.`;
}

export function revisePrompt(prompt: string, seed: number, edit: boolean): string {
  const rng = new Rng(seed).fork('revised_prompt');
  const lead = edit ? 'Keeping the layout and colours of the reference image, ' : 'Rendered as ';
  const style = rng.pick(STYLES);
  return `${sentence(prompt)} ${lead}${edit ? `restyled as ${style}` : style} ${rng.pick(LIGHT)}, with ${rng.pick(FRAMING)} (synthetic sandbox image).`;
}
