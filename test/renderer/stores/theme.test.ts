import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { nextTick } from 'vue';
import { DARK_CLASS, THEME_STORAGE_KEY, useThemeStore } from '@/stores/theme';

let osDark = false;
let listener: ((e: { matches: boolean }) => void) | null = null;

beforeEach(() => {
  localStorage.clear();
  document.documentElement.classList.remove(DARK_CLASS);
  osDark = false;
  vi.stubGlobal('matchMedia', () => ({
    matches: osDark,
    addEventListener: (_: string, cb: (e: { matches: boolean }) => void) => (listener = cb),
    removeEventListener: () => (listener = null),
  }));
  setActivePinia(createPinia());
});

afterEach(() => vi.unstubAllGlobals());

describe('theme store', () => {
  it('follows the OS until the user picks a theme', async () => {
    osDark = true;
    const theme = useThemeStore();
    expect(document.documentElement.classList.contains(DARK_CLASS)).toBe(true);
    listener?.({ matches: false });
    await nextTick();
    expect(theme.isDark).toBe(false);
    expect(document.documentElement.classList.contains(DARK_CLASS)).toBe(false);
  });

  describe('toggle()', () => {
    it('pins the opposite theme and remembers it across restarts', async () => {
      useThemeStore().toggle();
      await nextTick();
      expect(localStorage.getItem(THEME_STORAGE_KEY)).toBe('dark');
      expect(document.documentElement.classList.contains(DARK_CLASS)).toBe(true);
      setActivePinia(createPinia());
      const again = useThemeStore();
      expect(again.choice).toBe('dark');
      listener?.({ matches: false });
      expect(again.isDark).toBe(true);
    });
  });

  describe('setChoice()', () => {
    it("forgets the pin on 'system'", () => {
      const theme = useThemeStore();
      theme.setChoice('light');
      theme.setChoice('system');
      expect(localStorage.getItem(THEME_STORAGE_KEY)).toBeNull();
    });
  });

  it('follows a theme picked in another window (the storage event)', async () => {
    const theme = useThemeStore();
    localStorage.setItem(THEME_STORAGE_KEY, 'dark');
    window.dispatchEvent(new StorageEvent('storage', { key: THEME_STORAGE_KEY, newValue: 'dark' }));
    await nextTick();
    expect(theme.choice).toBe('dark');
    expect(document.documentElement.classList.contains(DARK_CLASS)).toBe(true);
    localStorage.removeItem(THEME_STORAGE_KEY);
    window.dispatchEvent(new StorageEvent('storage', { key: THEME_STORAGE_KEY, newValue: null }));
    await nextTick();
    expect(theme.choice).toBe('system');
    theme.dispose();
  });
});
