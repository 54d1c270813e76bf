import { afterEach, describe, expect, it } from 'vitest';
import RunInspector from '@/components/run/RunInspector.vue';
import { makeRecord } from '../../fake-data';
import { mountWithApp, type Mounted } from '../../mount-app';

let m: Mounted;
afterEach(() => m?.wrapper.unmount());

// The first mount loads the inspector's code export (highlighter, codegen): seconds on a loaded machine.
describe('RunInspector', { timeout: 20_000 }, () => {
  it('shows nothing of the kind when no cap was hit', async () => {
    m = await mountWithApp(RunInspector, { props: { record: makeRecord() } });
    expect(m.wrapper.find('[aria-label="Limits reached"]').exists()).toBe(false);
  });

  it('says which response caps were hit, above the tabs', async () => {
    const message = 'The service sent an error of 95.4 MB; the first 1 MB is kept and the rest was not read.';
    const record = makeRecord({ status: 'error', response: { status: 400, headers: {}, body: '{"error":', notices: [{ limit: 'error_body', message }] } });
    m = await mountWithApp(RunInspector, { props: { record } });
    expect(m.wrapper.find('[aria-label="Limits reached"]').text()).toBe(message);
  });
});
