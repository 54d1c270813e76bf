import { beforeEach, describe, expect, it } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { provideWorkbench } from '@/api';
import { ATTACHED_KEY, useLiveSessionsStore } from '@/stores/live-sessions';
import { createFakeWorkbench, type FakeWorkbench } from '../fake-workbench';

let fake: FakeWorkbench;
const turn = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

beforeEach(() => {
  window.sessionStorage.clear();
  fake = createFakeWorkbench();
  provideWorkbench(fake);
  setActivePinia(createPinia());
});

/** A reload: the page's stores start over; main (the fake) and the tab's sessionStorage stay. */
function reload() {
  setActivePinia(createPinia());
  return useLiveSessionsStore();
}

describe('live-sessions store', () => {
  it('starts and attaches: the snapshot, then events; the id is kept for a reload', async () => {
    const live = useLiveSessionsStore();
    const view = await live.start('test-ticker', { label: 'a' });
    await turn();
    fake.controls.live.emit(view.id, { n: 1 }, { count: 1 });
    fake.controls.live.emit(view.id, { n: 2 }, { count: 2 });
    const shown = live.views.get(view.id)!;
    expect(shown).toMatchObject({ attached: true, snapshots: 1, seq: 2, events: [{ n: 1 }, { n: 2 }], gaps: 0 });
    expect(JSON.parse(window.sessionStorage.getItem(ATTACHED_KEY)!)).toEqual([view.id]);
  });

  it('after a reload, restore() re-attaches: a fresh snapshot and the events go on from it', async () => {
    const before = useLiveSessionsStore();
    const { id } = await before.start('test-ticker', {});
    await turn();
    for (let n = 1; n <= 3; n++) fake.controls.live.emit(id, { n }, { count: n });
    const after = reload();
    expect(after.views.size).toBe(0);
    after.restore();
    await turn();
    fake.controls.live.emit(id, { n: 4 }, { count: 4 });
    expect(fake.controls.live.attaches).toEqual([id, id]);
    expect(after.views.get(id)).toMatchObject({ attached: true, snapshot: { count: 3 }, snapshotSeq: 3, seq: 4, events: [{ n: 4 }], gaps: 0 });
  });

  it('a second snapshot on the same attachment (a re-attach after a dropped socket) replaces the state, with no gap', async () => {
    const live = useLiveSessionsStore();
    const { id } = await live.start('test-ticker', {});
    await turn();
    fake.controls.live.emit(id, { n: 1 }, { count: 1 });
    const session = fake.controls.live.sessions.get(id)!;
    // Events 2 and 3 happened while the socket was down; the new snapshot carries them.
    session.seq = 3;
    session.snapshot = { count: 3 };
    session.attachments[0].onChunk({ type: 'snapshot', session: session.summary, seq: 3, snapshot: { count: 3 } });
    fake.controls.live.emit(id, { n: 4 }, { count: 4 });
    expect(live.views.get(id)).toMatchObject({ snapshots: 2, snapshot: { count: 3 }, events: [{ n: 4 }], seq: 4, gaps: 0, error: null });
  });

  it('detach keeps the session running in main and forgets the id; a session that ends is forgotten too', async () => {
    const live = useLiveSessionsStore();
    const a = await live.start('test-ticker', {});
    const b = await live.start('test-ticker', {});
    await turn();
    await live.detach(a.id);
    expect(fake.controls.live.sessions.has(a.id)).toBe(true);
    expect(fake.controls.live.sessions.get(a.id)!.attachments).toHaveLength(0);
    await live.stop(b.id);
    await turn();
    expect(live.views.get(b.id)).toMatchObject({ attached: false, summary: { status: 'ended' } });
    expect(window.sessionStorage.getItem(ATTACHED_KEY)).toBeNull();
    expect(live.attachedIds).toEqual([]);
  });

  it('restore() forgets a session that ended while the page was away', async () => {
    const before = useLiveSessionsStore();
    const { id } = await before.start('test-ticker', {});
    await turn();
    const after = reload();
    fake.controls.live.end(id);
    after.restore();
    await turn();
    await turn();
    expect(after.views.get(id)).toMatchObject({ attached: false, error: { code: 'not_found' } });
    expect(window.sessionStorage.getItem(ATTACHED_KEY)).toBeNull();
  });

  it('keeps the list of running sessions from live.list and live.changed', async () => {
    const live = useLiveSessionsStore();
    await live.load();
    expect(live.running).toEqual([]);
    const { id } = await live.start('test-ticker', {});
    expect(live.running.map((s) => s.id)).toEqual([id]);
    await live.stop(id);
    expect(live.running).toEqual([]);
  });
});
