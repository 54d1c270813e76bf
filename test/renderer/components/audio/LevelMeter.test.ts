// The shared level meter (the realtime call's CallLevelMeter and the live transcription panel
// both draw it): -60..0 dBFS across the bar, silence empty, the level said to assistive technology.
import { afterEach, describe, expect, it } from 'vitest';
import { mount, type VueWrapper } from '@vue/test-utils';
import { MIN_DBFS } from '@shared/audio/levels';
import LevelMeter from '@/components/audio/LevelMeter.vue';

let w: VueWrapper | undefined;
afterEach(() => w?.unmount());

const fill = (wrapper: VueWrapper) => parseFloat((wrapper.find('.meter-fill').element as HTMLElement).style.width);

describe('LevelMeter', () => {
  it.each([
    [0, 100],
    [6, 100], // a clipped level stays full
    [-15, 75],
    [-30, 50],
    [-60, 0],
    [-80, 0],
    [MIN_DBFS, 0],
  ])('%d dBFS fills %d%% of the bar', (dbfs, percent) => {
    w = mount(LevelMeter, { props: { dbfs } });
    expect(fill(w)).toBeCloseTo(percent, 5);
    expect(w.find('[role="meter"]').attributes('aria-valuenow')).toBe(String(Math.round(dbfs)));
  });

  it('follows its level and says what it measures', async () => {
    w = mount(LevelMeter, { props: { dbfs: -45, label: 'Caller level' } });
    expect(w.find('[role="meter"]').attributes('aria-label')).toBe('Caller level');
    expect(fill(w)).toBeCloseTo(25, 5);
    await w.setProps({ dbfs: -12.4 });
    expect(fill(w)).toBeCloseTo(79.33, 1);
    expect(w.find('[role="meter"]').attributes('aria-valuenow')).toBe('-12');
  });

  it('is "Microphone level" unless told otherwise', () => {
    w = mount(LevelMeter, { props: { dbfs: -20 } });
    expect(w.find('[role="meter"]').attributes('aria-label')).toBe('Microphone level');
  });
});
