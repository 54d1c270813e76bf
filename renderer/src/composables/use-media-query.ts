/**
 * Whether a CSS media query matches, as a ref that follows window resizes for the life of the
 * calling scope. The layout's breakpoints live here too, so CSS-only rules and the components
 * that change behaviour (the nav, the playground's parameters drawer) switch at the same width.
 */
import { onScopeDispose, readonly, ref, type Ref } from 'vue';

/**
 * Below this width the shell is compact: the nav shows icons only and a playground's model and
 * parameters move into a drawer (at 1100 px a 22rem side column would leave the form ~500 px).
 */
export const COMPACT_QUERY = '(max-width: 1099.98px)';

/** `matches` of `query`, updated on change; false where matchMedia does not exist. */
export function useMediaQuery(query: string): Readonly<Ref<boolean>> {
  const list = globalThis.matchMedia?.(query);
  const matches = ref(list?.matches ?? false);
  const onChange = (e: MediaQueryListEvent): void => {
    matches.value = e.matches;
  };
  list?.addEventListener?.('change', onChange);
  onScopeDispose(() => list?.removeEventListener?.('change', onChange));
  return readonly(matches);
}
