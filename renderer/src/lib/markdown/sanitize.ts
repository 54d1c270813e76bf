// Sanitises rendered markdown HTML with a private DOMPurify instance (its hooks do not leak into
// other users of DOMPurify): no scripts, no event handlers, no javascript: URLs, and every link
// opens outside the app without access to the opener.
import DOMPurify, { type DOMPurify as Purifier } from 'dompurify';

let purifier: Purifier | undefined;
let holder: HTMLElement | undefined;

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

/**
 * An element of the inert document behind <template>: parsing there runs no script and loads
 * nothing, and reusing it spares a new DOMParser document per call (the tail is sanitised every
 * frame while streaming; those throw-away documents made long garbage-collection pauses).
 */
function inertHolder(): HTMLElement {
  holder ??= document.createElement('template').content.ownerDocument.createElement('div');
  return holder;
}

/** Returns `html` with anything executable removed (script/style/iframe/form, on* attributes, script URLs). */
export function sanitizeHtml(html: string): string {
  const node = inertHolder();
  node.innerHTML = html;
  instance().sanitize(node, {
    IN_PLACE: true,
    USE_PROFILES: { html: true },
    FORBID_TAGS: ['style', 'form', 'input', 'textarea', 'select', 'iframe', 'object', 'embed'],
  });
  const clean = node.innerHTML;
  node.textContent = '';
  return clean;
}
