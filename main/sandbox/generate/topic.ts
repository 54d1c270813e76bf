/**
 * What a prompt is about, in a few words, so synthetic answers can refer to it: the first
 * meaningful words of the last user message.
 */

const STOP = new Set(
  (
    'about above after again also although always another because been before being below between both ' +
    'could does doing down during each every explain from have having here into just know like more most ' +
    'much must need only other over please same should show some such tell than that their them then there ' +
    'these they this those through under until very want what when where which while will with would write ' +
    'your yours give make using used into can you how why the and for are was were has had not but our its'
  ).split(' '),
);

/** Up to `max` keywords of `text`, lower-cased, in order of appearance, without repeats. */
export function keywords(text: string, max = 3): string[] {
  const out: string[] = [];
  for (const m of text.toLowerCase().matchAll(/[\p{L}][\p{L}\p{N}-]{2,}/gu)) {
    const w = m[0];
    if (STOP.has(w) || out.includes(w)) continue;
    out.push(w);
    if (out.length === max) break;
  }
  return out;
}

/** A short phrase for the topic, e.g. "tide pools" or "your question" when nothing stands out. */
export function topicOf(text: string): string {
  const words = keywords(text, 3);
  return words.length > 0 ? words.join(' ') : 'your question';
}
