import { beforeEach, describe, expect, it, vi } from 'vitest';

const shown: Array<{ title: string; body: string }> = [];
const state = { supported: true, fail: false };

vi.mock('electron', () => ({
  Notification: class {
    static isSupported = (): boolean => state.supported;
    constructor(private readonly options: { title: string; body: string }) {}
    show(): void {
      if (state.fail) throw new Error('no daemon');
      shown.push({ title: this.options.title, body: this.options.body });
    }
  },
}));

const { createNotifier } = await import('../../../../main/electron/notify');

describe('createNotifier', () => {
  beforeEach(() => {
    shown.length = 0;
    state.supported = true;
    state.fail = false;
  });

  it('shows an Electron Notification with the title and body', () => {
    createNotifier(() => undefined)('Video ready', '“a kite” · 3 s');
    expect(shown).toEqual([{ title: 'Video ready', body: '“a kite” · 3 s' }]);
  });

  it('does nothing where notifications are not supported', () => {
    state.supported = false;
    createNotifier(() => undefined)('Video ready', 'x');
    expect(shown).toEqual([]);
  });

  it('logs instead of throwing when showing fails', () => {
    state.fail = true;
    const log = vi.fn();
    expect(() => createNotifier(log)('Video failed', 'x')).not.toThrow();
    expect(log).toHaveBeenCalledWith(expect.stringContaining('no daemon'));
  });
});
