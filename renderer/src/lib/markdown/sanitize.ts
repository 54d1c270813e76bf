// Sanitises rendered markdown HTML with a private DOMPurify instance (its hooks do not leak into
// other users of DOMPurify): no scripts, no event handlers, no javascript: URLs, and every link
// opens outside the app without access to the opener.
import DOMPurify, { type DOMPurify as Purifier } from 'dompurify';

let purifier: Purifier | undefined;

function instance(): Purifier {
  if (purifier) return purifier;
  const p = DOMPurify(window);
  p.addHook('afterSanitizeAttributes', (node) => {
    if (node.tagName === 'A' && node.hasAttribute('href')) {
      node.setAttribute('target', '_blank');
      node.setAttribute('rel', 'noopener noreferrer');
    }
  });
  purifier = p;
  return p;
}

/** Returns `html` with anything executable removed (script/style/iframe/form, on* attributes, script URLs). */
export function sanitizeHtml(html: string): string {
  return instance().sanitize(html, {
    USE_PROFILES: { html: true },
    FORBID_TAGS: ['style', 'form', 'input', 'textarea', 'select', 'iframe', 'object', 'embed'],
  });
}
