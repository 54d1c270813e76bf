/**
 * Light/dark theme. Follows the OS until the user picks one; the pick is kept in localStorage.
 * PrimeVue's dark mode keys off the `.app-dark` class on <html>.
 *
 * The pick is the page's, not main's: every window of the app shares the page's localStorage (one
 * origin per shell), and its `storage` event carries a pick made in another window here live, so
 * it needs no round trip through main and applies before the first paint.
 */
import { defineStore } from 'pinia';
import { computed, ref, watch } from 'vue';

export type ThemeChoice = 'system' | 'light' | 'dark';

export const THEME_STORAGE_KEY = 'workbench.theme';
export const DARK_CLASS = 'app-dark';

function readChoice(): ThemeChoice {
  const saved = globalThis.localStorage?.getItem(THEME_STORAGE_KEY);
  return saved === 'light' || saved === 'dark' ? saved : 'system';
}

export const useThemeStore = defineStore('theme', () => {
  const choice = ref<ThemeChoice>(readChoice());
  const media = globalThis.matchMedia?.('(prefers-color-scheme: dark)');
  const systemDark = ref(media?.matches ?? false);
  const onMedia = (e: MediaQueryListEvent): void => {
    systemDark.value = e.matches;
  };
  media?.addEventListener?.('change', onMedia);
  // Another window picked (or forgot) a theme.
  const onStorage = (e: StorageEvent): void => {
    if (e.key === THEME_STORAGE_KEY || e.key === null) choice.value = readChoice();
  };
  globalThis.addEventListener?.('storage', onStorage);

  const isDark = computed(() => (choice.value === 'system' ? systemDark.value : choice.value === 'dark'));

  watch(
    isDark,
    (dark) => globalThis.document?.documentElement.classList.toggle(DARK_CLASS, dark),
    { immediate: true },
  );

  /** Pins a theme ('system' forgets the pin and follows the OS again). */
  function setChoice(next: ThemeChoice): void {
    choice.value = next;
    if (next === 'system') globalThis.localStorage?.removeItem(THEME_STORAGE_KEY);
    else globalThis.localStorage?.setItem(THEME_STORAGE_KEY, next);
  }

  /** Flips between light and dark (pinning the result). */
  function toggle(): void {
    setChoice(isDark.value ? 'light' : 'dark');
  }

  function dispose(): void {
    media?.removeEventListener?.('change', onMedia);
    globalThis.removeEventListener?.('storage', onStorage);
  }

  return { choice, systemDark, isDark, setChoice, toggle, dispose };
});
