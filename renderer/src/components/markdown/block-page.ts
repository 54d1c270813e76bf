// A fixed-size run of completed blocks. Pages let a commit re-render one small page instead of
// diffing every block of a long message; full pages never render again.
import { markRaw, shallowRef, type ShallowRef } from 'vue';
import type { RenderedBlock } from '../../lib/markdown/streaming-document';

/** Blocks per page: small enough that re-rendering the last page is cheap. */
export const PAGE_SIZE = 64;

/** A page of blocks; raw so Vue does not walk it, with a shallow ref the page component tracks. */
export interface BlockPage {
  readonly key: string;
  readonly blocks: ShallowRef<RenderedBlock[]>;
}

/** Creates an empty page. */
export function createPage(key: string): BlockPage {
  return markRaw({ key, blocks: shallowRef<RenderedBlock[]>([]) });
}
