/**
 * onceGone() tells the console once that the call it followed is gone from main (`not_found`), and
 * follows the attachment's error alone: not the view, which changes with every message of a call.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { provideWorkbench } from '@/api';
import { useLiveSessionsStore } from '@/stores/live-sessions';
import { onceGone } from '@/families/realtime/stores/call-gone';
import { createFakeWorkbench, type FakeWorkbench } from '../../fake-workbench';

let fake: FakeWorkbench;
const turn = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

beforeEach(() => {
  window.sessionStorage.clear();
  fake = createFakeWorkbench();
  provideWorkbench(fake);
  setActivePinia(createPinia());
});

describe('onceGone()', () => {
  it('is not run by the messages of a busy call, and tells once when the call is not found', async () => {
    const live = useLiveSessionsStore();
    const { id } = await live.start('test-ticker', {});
    await turn();
    let gone = 0;
    onceGone(live, id, () => gone++);
    const get = vi.spyOn(live.views, 'get');
    for (let n = 1; n <= 20; n++) {
      fake.controls.live.emit(id, { n }, { count: n });
      await turn();
    }
    expect(live.views.get(id)?.seq).toBe(20);
    expect(get).toHaveBeenCalledTimes(1); // the line above, not the watcher
    expect(gone).toBe(0);

    const session = fake.controls.live.sessions.get(id)!;
    session.attachments[0].onChunk({ type: 'error', error: { code: 'not_found', message: 'No such session.' } });
    await turn();
    expect(live.errorOf(id)).toMatchObject({ code: 'not_found' });
    expect(gone).toBe(1);
    session.attachments[0].onChunk({ type: 'error', error: { code: 'not_found', message: 'Still gone.' } });
    await turn();
    expect(gone).toBe(1);
  });

  it('says nothing for another error', async () => {
    const live = useLiveSessionsStore();
    const { id } = await live.start('test-ticker', {});
    await turn();
    let gone = 0;
    onceGone(live, id, () => gone++);
    fake.controls.live.sessions.get(id)!.attachments[0].onChunk({ type: 'error', error: { code: 'internal', message: 'Broken.' } });
    await turn();
    expect(live.errorOf(id)).toMatchObject({ code: 'internal' });
    expect(gone).toBe(0);
  });
});
