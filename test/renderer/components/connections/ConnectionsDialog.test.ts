import { afterEach, describe, expect, it } from 'vitest';
import { flushPromises } from '@vue/test-utils';
import { defineComponent, h } from 'vue';
import ConnectionsDialog from '@/components/connections/ConnectionsDialog.vue';
import { useConnectionsStore } from '@/stores/connections';
import { button, mountWithApp, type Mounted } from '../../mount-app';

let m: Mounted;
afterEach(() => {
  m?.wrapper.unmount();
  document.body.innerHTML = '';
});

const Host = defineComponent({ setup: () => () => h(ConnectionsDialog, { visible: true }) });

async function open(keyWarning: string | null = null): Promise<Mounted> {
  m = await mountWithApp(Host, { fake: { keyWarning } });
  await useConnectionsStore().load();
  await flushPromises();
  return m;
}

function input(id: string): HTMLInputElement {
  return document.querySelector<HTMLInputElement>(`#${id}`)!;
}

async function type(id: string, value: string): Promise<void> {
  const el = input(id);
  el.value = value;
  el.dispatchEvent(new Event('input'));
  await flushPromises();
}

describe('ConnectionsDialog', () => {
  it('warns when keys are stored without OS encryption', async () => {
    await open('Keys are stored as plain text (basic_text): anyone with access to your files can read them.');
    expect(document.body.textContent).toContain('Keys are stored as plain text');
  });

  it('shows the built-in sandbox\'s key with Copy, since code run outside the app needs it', async () => {
    await open();
    const sandbox = [...document.querySelectorAll('.profile')].find((li) => li.textContent?.includes('Sandbox'))!;
    expect(sandbox.querySelector('.sandbox-key')!.textContent).toBe('sk-sandbox-fake0123');
    expect(sandbox.textContent).toContain('Not a secret');
    const written: string[] = [];
    Object.defineProperty(navigator, 'clipboard', { value: { writeText: async (t: string) => void written.push(t) }, configurable: true });
    [...sandbox.querySelectorAll('button')].find((b) => b.textContent?.includes('Copy key'))!.click();
    await flushPromises();
    expect(written).toEqual(['sk-sandbox-fake0123']);
    // No "port taken" notice (the copy button's own status line says "Copied key").
    expect(sandbox.querySelector('.moved')).toBeNull();
    expect(sandbox.querySelector('.copy-button [role="status"]')!.textContent).toBe('Copied key');
  });

  it('says which port the sandbox took when the one it wanted was busy', async () => {
    m = await mountWithApp(Host, { fake: { sandbox: { port: 38211, preferredPort: 4010, preferredSource: 'default' } } });
    await useConnectionsStore().load();
    await flushPromises();
    expect(document.querySelector('.sandbox-info .moved[role="status"]')!.textContent).toBe(
      'Port 4010 (the default) was taken, so the sandbox listens on 38211 this time. Code exported before reaches it with WORKBENCH_BASE_URL=http://127.0.0.1:38211.',
    );
  });

  it('saves a port for the next launch, refusing one it cannot use, and clears it', async () => {
    await open();
    await type('sandbox-port', '80');
    expect(document.querySelector('#sandbox-port-error')!.textContent).toBe('choose a port from 1024 to 65535');
    await type('sandbox-port', '40.5');
    expect(document.querySelector('#sandbox-port-error')!.textContent).toBe('a port is a whole number, such as 4010');
    await type('sandbox-port', '4321');
    expect(document.querySelector('#sandbox-port-error')).toBeNull();
    button(m.wrapper, 'Save port').click();
    await flushPromises();
    await type('sandbox-port', '');
    button(m.wrapper, 'Save port').click();
    await flushPromises();
    expect(m.fake.controls.calls.filter((c) => c.method === 'connections.setSandboxPort').map((c) => c.input)).toEqual([{ port: 4321 }, { port: null }]);
  });

  it('adds a profile with its key, then shows "Key stored" and never the key', async () => {
    await open();
    button(m.wrapper, 'Add connection').click();
    await flushPromises();
    await type('conn-name', 'Production');
    await type('conn-url', 'https://api.example.com');
    await type('conn-key', 'sk-live-123');
    button(m.wrapper, 'Add connection').click();
    await flushPromises();
    expect(m.fake.controls.calls.find((c) => c.method === 'connections.save')?.input).toEqual({
      name: 'Production',
      baseUrl: 'https://api.example.com',
      apiKey: 'sk-live-123',
    });
    expect(document.body.textContent).toContain('Key stored');
    expect(document.body.innerHTML).not.toContain('sk-live-123');
  });

  it('keeps the stored key when an existing profile is saved with the key field empty', async () => {
    await open();
    await useConnectionsStore().save({ name: 'Staging', baseUrl: 'https://staging.example.com', apiKey: 'sk-1' });
    await flushPromises();
    button(m.wrapper, 'Edit Staging').click();
    await flushPromises();
    expect(input('conn-key').value).toBe('');
    expect(input('conn-key').placeholder).toContain('key stored');
    await type('conn-name', 'Staging EU');
    button(m.wrapper, 'Save changes').click();
    await flushPromises();
    expect(m.fake.controls.calls.filter((c) => c.method === 'connections.save').at(-1)?.input).toEqual({
      id: 'remote-1',
      name: 'Staging EU',
      baseUrl: 'https://staging.example.com',
      baseRevision: 1,
    });
  });

  it('refuses to save over a change made in another window meanwhile, says so, and overwrites on a second save', async () => {
    await open();
    await useConnectionsStore().save({ name: 'Staging', baseUrl: 'https://staging.example.com', apiKey: 'sk-1' });
    await flushPromises();
    button(m.wrapper, 'Edit Staging').click();
    await flushPromises();
    // Another window renames it while this form is open.
    await m.fake.connections.save({ id: 'remote-1', name: 'Staging (theirs)', baseUrl: 'https://staging.example.com' });
    await type('conn-name', 'Staging (mine)');
    button(m.wrapper, 'Save changes').click();
    await flushPromises();
    expect(document.body.textContent).toContain('was changed in another window since this form opened');
    expect(input('conn-name').value).toBe('Staging (mine)');
    button(m.wrapper, 'Save changes').click();
    await flushPromises();
    const saves = m.fake.controls.calls.filter((c) => c.method === 'connections.save');
    expect(saves.at(-1)?.input).toEqual({ id: 'remote-1', name: 'Staging (mine)', baseUrl: 'https://staging.example.com' });
    expect(useConnectionsStore().profiles.find((p) => p.id === 'remote-1')?.name).toBe('Staging (mine)');
  });

  it('refuses a base URL without a scheme, with the reason, once the field is left', async () => {
    await open();
    button(m.wrapper, 'Add connection').click();
    await flushPromises();
    await type('conn-name', 'Bad');
    await type('conn-url', 'api.example.com');
    expect(document.body.textContent).not.toContain('base URL must be a URL');
    input('conn-url').dispatchEvent(new Event('blur'));
    await flushPromises();
    expect(document.body.textContent).toContain('base URL must be a URL such as https://api.example.com');
    expect(input('conn-url').getAttribute('aria-describedby')).toBe('conn-url-error');
  });

  it('shows a fresh New profile form without any error, and says what is missing only on Save', async () => {
    await open();
    button(m.wrapper, 'Add connection').click();
    await flushPromises();
    expect(document.querySelectorAll('.connection-form .field-error')).toHaveLength(0);
    expect(document.querySelectorAll('.connection-form [aria-invalid="true"], .connection-form .p-invalid')).toHaveLength(0);
    (document.querySelector('.connection-form button[type="submit"]') as HTMLButtonElement).click();
    await flushPromises();
    expect(document.querySelectorAll('.connection-form .field-error').length).toBeGreaterThan(0);
    expect(m.fake.controls.calls.some((c) => c.method === 'connections.save')).toBe(false);
  });

  it('tests a connection and shows the model count, latency and the models it lists', async () => {
    await open();
    button(m.wrapper, 'Test connection').click();
    await flushPromises();
    expect(document.body.textContent).toContain('4 models · 42 ms: ');
    expect(document.body.textContent).toContain('svc-4');
  });
});
