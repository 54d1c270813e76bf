// Sanitises rendered markdown HTML with a private DOMPurify instance (its hooks do not leak into
// other users of DOMPurify): no scripts, no event handlers, no javascript: URLs, and every link
// opens outside the app without access to the opener.
import DOMPurify, { type DOMPurify as Purifier } from 'dompurify';

let purifier: Purifier | undefined;
let inert: Document | undefined;

function instance(): Purifier {
  if (purifier) return purifier;
  const p = DOMPurify(window);
  p.addHook('afterSanitizeAttributes', (node) => {
    if (node.tagName === 'A' && node.hasAttribute('href')) {
      node.setAttribute('target', '_blank');
      node.setAttribute('rel', 'noopener noreferrer');
    }
  });
  // Parsed once: passing a config to every sanitize() call re-parses it each time (it showed in
  // profiles of streaming, where the tail is sanitised every frame).
  p.setConfig({
    IN_PLACE: true,
    USE_PROFILES: { html: true },
    FORBID_TAGS: ['style', 'form', 'input', 'textarea', 'select', 'iframe', 'object', 'embed'],
  });
  purifier = p;
  return p;
}

/**
 * The inert document behind <template>: parsing there runs no script and loads nothing, and
 * reusing it spares a new DOMParser document per call (the tail is sanitised every frame while
 * streaming; those throw-away documents made long garbage-collection pauses).
 */
function inertDocument(): Document {
  inert ??= document.createElement('template').content.ownerDocument;
  return inert;
}

/** Returns `html` with anything executable removed (script/style/iframe/form, on* attributes, script URLs). */
export function sanitizeHtml(html: string): string {
  // A fresh element each call: emptying a reused one made the browser notify every NodeIterator
  // DOMPurify had created on this document (they live until GC) of each removed node, so the cost
  // of a call grew with the number of calls since the last collection.
  const node = inertDocument().createElement('div');
  node.innerHTML = html;
  instance().sanitize(node);
  return node.innerHTML;
}
