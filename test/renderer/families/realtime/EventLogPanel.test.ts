/**
 * The event log panel with a long call: only the rows in view are in the DOM (virtualised), the
 * rows no longer held are said (with the way to History's full timeline), and the filters narrow
 * what the list shows.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { flushPromises } from '@vue/test-utils';
import EventLogPanel from '@/families/realtime/components/EventLogPanel.vue';
import { EventLog } from '@/families/realtime/lib/event-log';
import { mountWithApp, type Mounted } from '../../mount-app';

let m: Mounted;
afterEach(() => m?.wrapper.unmount());

/** A call of `turns` answers, each: speech started, 50 audio deltas, done. */
function longCall(turns: number, maxRows: number): EventLog {
  const log = new EventLog({ maxRows });
  let t = 0;
  for (let i = 0; i < turns; i++) {
    log.push({ t: t++, direction: 'in', message: { type: 'input_audio_buffer.speech_started', audio_start_ms: t } });
    for (let d = 0; d < 50; d++) log.push({ t: t++, direction: 'in', message: { type: 'response.output_audio.delta', item_id: `item_${i}`, delta: { bytes: 960 } } });
    log.push({ t: t++, direction: 'in', message: { type: 'response.done' } });
  }
  return log;
}

describe('EventLogPanel', () => {
  it('draws only the rows in view of a long log, and says how many older messages are only in History', async () => {
    const log = longCall(2_000, 3_000);
    m = await mountWithApp(EventLogPanel, { props: { log, version: 1, runId: 'run_1', exportJsonl: async () => new Blob([]) } });
    await flushPromises();
    const drawn = document.querySelectorAll('[data-test="log-row"]').length;
    expect(log.size).toBe(3_000);
    expect(drawn).toBeGreaterThan(0);
    expect(drawn).toBeLessThan(60);
    // 6,000 rows made, 3,000 held: 3,000 rows of 52 messages per 3 rows gone.
    expect(document.querySelector('[data-test="log-older"]')?.textContent).toContain('52,000 older messages (3,000 rows) are not held here');
    expect(document.querySelector('[data-test="log-count"]')?.textContent).toContain('104,000 messages · 3,000 rows shown');
    // Building a 104,000-message log takes a few seconds on a loaded machine.
  }, 30_000);

  it("a full log keeps each drawn row's stripe as rows are dropped for new ones", async () => {
    const log = new EventLog({ maxRows: 10 });
    for (let t = 0; t < 10; t++) log.push({ t, direction: 'in', message: { type: `event.${t}` } });
    m = await mountWithApp(EventLogPanel, { props: { log, version: 1, runId: null, exportJsonl: async () => new Blob([]) } });
    await flushPromises();
    const stripes = () => Object.fromEntries([...document.querySelectorAll('[data-test="log-row"]')].map((r) => [r.querySelector('[data-test="log-type"]')!.textContent, r.classList.contains('odd')]));
    const before = stripes();
    expect(Object.values(before).filter(Boolean)).toHaveLength(5);
    log.push({ t: 10, direction: 'in', message: { type: 'event.10' } });
    await m.wrapper.setProps({ version: 2 });
    await flushPromises();
    const after = stripes();
    expect(Object.keys(after)).toContain('event.10');
    expect(Object.keys(after)).not.toContain('event.0');
    for (let t = 1; t < 10; t++) expect(after[`event.${t}`]).toBe(before[`event.${t}`]);
    expect(after['event.10']).toBe(!after['event.9']);
  });

  it("builds the type filter's choices only while its list is open, and follows new types then", async () => {
    const log = new EventLog({ maxRows: 100 });
    log.push({ t: 0, direction: 'in', message: { type: 'session.updated' } });
    const entries = vi.spyOn(log.typeCounts, 'entries');
    m = await mountWithApp(EventLogPanel, { props: { log, version: 1, runId: null, exportJsonl: async () => new Blob([]) } });
    await flushPromises();
    // A busy call with the filter closed: messages come, the version moves, the choices are not built.
    for (let v = 2; v < 12; v++) {
      log.push({ t: v, direction: 'in', message: { type: `event.${v % 3}` } });
      await m.wrapper.setProps({ version: v });
    }
    await flushPromises();
    expect(document.querySelectorAll('[data-test="log-row"]')).toHaveLength(11);
    expect(entries).not.toHaveBeenCalled();

    await m.wrapper.find('[data-test="log-filter-types"]').trigger('click');
    await flushPromises();
    const options = () => m.wrapper.find('[data-test="log-filter-types-list"]').findAll('label').map((l) => l.text().replace(/\s+/g, ' '));
    expect(options()).toEqual(['event.0 (3)', 'event.1 (3)', 'event.2 (4)', 'session.updated (1)']);
    log.push({ t: 20, direction: 'out', message: { type: 'response.create' } });
    await m.wrapper.setProps({ version: 20 });
    await flushPromises();
    expect(options()).toEqual(['event.0 (3)', 'event.1 (3)', 'event.2 (4)', 'response.create (1)', 'session.updated (1)']);
  });

  it('narrows the list by direction and by the chosen types', async () => {
    const log = new EventLog({ maxRows: 100 });
    log.push({ t: 0, direction: 'out', message: { type: 'session.update' } });
    log.push({ t: 1, direction: 'in', message: { type: 'session.updated' } });
    log.push({ t: 2, direction: 'out', message: { type: 'response.create' } });
    m = await mountWithApp(EventLogPanel, { props: { log, version: 1, runId: null, exportJsonl: async () => new Blob([]) } });
    await flushPromises();
    const types = () => [...document.querySelectorAll('[data-test="log-type"]')].map((e) => e.textContent);
    expect(types()).toEqual(['session.update', 'session.updated', 'response.create']);
    await m.wrapper.find('[aria-label="Direction"] [aria-label="→ out"], [aria-label="Direction"] button:nth-child(3)').trigger('click');
    await flushPromises();
    expect(types()).toEqual(['session.update', 'response.create']);
    expect(document.querySelector('[data-test="log-older"]')).toBeNull();
  });

  it('filters by type from a light list of checkboxes (one per type with its count), opened and closed from the keyboard', async () => {
    const log = new EventLog({ maxRows: 100 });
    log.push({ t: 0, direction: 'out', message: { type: 'session.update' } });
    log.push({ t: 1, direction: 'in', message: { type: 'session.updated' } });
    log.push({ t: 2, direction: 'out', message: { type: 'response.create' } });
    log.push({ t: 3, direction: 'in', message: { type: 'session.updated' } });
    m = await mountWithApp(EventLogPanel, { props: { log, version: 1, runId: null, exportJsonl: async () => new Blob([]) } });
    await flushPromises();
    const types = () => [...document.querySelectorAll('[data-test="log-type"]')].map((e) => e.textContent);
    const button = m.wrapper.find('[data-test="log-filter-types"]');
    expect(button.attributes('aria-expanded')).toBe('false');
    expect(button.attributes('aria-label')).toBe('Event types: All types');
    expect(m.wrapper.find('[data-test="log-filter-types-list"]').exists()).toBe(false);

    await button.trigger('click');
    await flushPromises();
    expect(button.attributes('aria-expanded')).toBe('true');
    const list = m.wrapper.find('[data-test="log-filter-types-list"]');
    expect(list.attributes('id')).toBe(button.attributes('aria-controls'));
    const options = list.findAll('label').map((l) => l.text().replace(/\s+/g, ' '));
    expect(options).toEqual(['response.create (1)', 'session.update (1)', 'session.updated (2)']);
    // The first box has the focus (Tab moves on, Space toggles: native checkboxes).
    const boxes = list.findAll('input[type="checkbox"]');
    expect(document.activeElement).toBe(boxes[0]!.element);

    await boxes[2]!.setValue(true);
    await flushPromises();
    expect(types()).toEqual(['session.updated', 'session.updated']);
    expect(button.attributes('aria-label')).toBe('Event types: session.updated');
    await boxes[1]!.setValue(true);
    await flushPromises();
    expect(types()).toEqual(['session.update', 'session.updated', 'session.updated']);

    // Escape closes the list and gives the focus back to the button; the filter stays.
    await list.trigger('keydown', { key: 'Escape' });
    await flushPromises();
    expect(button.attributes('aria-expanded')).toBe('false');
    expect(m.wrapper.find('[data-test="log-filter-types-list"]').exists()).toBe(false);
    expect(document.activeElement).toBe(button.element);
    expect(types()).toEqual(['session.update', 'session.updated', 'session.updated']);

    // Unticking both shows every type again.
    await button.trigger('click');
    await flushPromises();
    await m.wrapper.find('[data-test="log-filter-types-list"] .type-filter-clear').trigger('click');
    await flushPromises();
    expect(types()).toEqual(['session.update', 'session.updated', 'response.create', 'session.updated']);

    // A press outside the list closes it (the list stays open for presses inside).
    m.wrapper.find('[data-test="log-filter-types-list"] input').element.dispatchEvent(new Event('pointerdown', { bubbles: true }));
    await flushPromises();
    expect(button.attributes('aria-expanded')).toBe('true');
    document.body.dispatchEvent(new Event('pointerdown', { bubbles: true }));
    await flushPromises();
    expect(button.attributes('aria-expanded')).toBe('false');
  });
});
