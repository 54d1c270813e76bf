// The answer as plain text, for "Copy as text": the markdown rendered without our code-block
// chrome (language label, Copy button), then read back as text. DOMParser builds an inert
// document (no scripts run, nothing loads), so unsanitised HTML is harmless here.
import MarkdownIt from 'markdown-it';

let plain: MarkdownIt | undefined;

/** `source` (markdown) as the text a reader sees: no markup, one blank line between blocks. */
export function markdownToPlainText(source: string): string {
  plain ??= new MarkdownIt({ html: false, linkify: false });
  const html = plain.render(source);
  const doc = new DOMParser().parseFromString(`<body>${html}</body>`, 'text/html');
  const blocks: string[] = [];
  for (const node of Array.from(doc.body.children)) {
    if (node.tagName === 'UL' || node.tagName === 'OL') {
      const ordered = node.tagName === 'OL';
      Array.from(node.children).forEach((li, i) => blocks.push(`${ordered ? `${i + 1}.` : '-'} ${(li.textContent ?? '').trim()}`));
      blocks.push('');
    } else {
      blocks.push((node.textContent ?? '').replace(/\n+$/, ''), '');
    }
  }
  return blocks.join('\n').trim();
}
