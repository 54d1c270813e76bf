import { afterEach, describe, expect, it, vi } from 'vitest';
import { flushPromises, mount, type VueWrapper } from '@vue/test-utils';
import PrimeVue from 'primevue/config';
import ToastService from 'primevue/toastservice';
import { createPinia, setActivePinia } from 'pinia';
import CodeExport from '@/components/run/CodeExport.vue';
import { useConnectionsStore } from '@/stores/connections';
import type { CapturedRequest } from '@shared/contract/runs';
import type { ConnectionsState } from '@shared/contract/connections';

const headers = { 'content-type': 'application/json', authorization: 'Bearer ***' };
const chatWithTools: CapturedRequest = {
  method: 'POST',
  url: 'http://127.0.0.1:4010/v1/chat/completions',
  headers,
  body: {
    model: 'svc-4',
    messages: [{ role: 'user', content: 'weather in Oslo?' }],
    tools: [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: {} } } }],
  },
};
const models: CapturedRequest = { method: 'GET', url: 'http://127.0.0.1:4010/v1/models', headers, body: null };

let wrapper: VueWrapper;
afterEach(() => {
  wrapper?.unmount();
  document.body.innerHTML = '';
});

async function mountExport(request: CapturedRequest, connectionId?: string, state?: ConnectionsState): Promise<VueWrapper> {
  const pinia = createPinia();
  setActivePinia(pinia);
  if (state) useConnectionsStore().state = state;
  wrapper = mount(CodeExport, { props: { request, connectionId }, attachTo: document.body, global: { plugins: [[PrimeVue, { theme: 'none' }], ToastService, pinia] } });
  await flushPromises();
  return wrapper;
}

function tab(name: string): HTMLElement {
  const found = [...document.querySelectorAll<HTMLElement>('[role="tab"]')].find((t) => t.textContent?.trim() === name);
  if (!found) throw new Error(`no tab ${name}`);
  return found;
}

async function open(name: string): Promise<string> {
  tab(name).click();
  await flushPromises();
  expect(tab(name).getAttribute('aria-selected')).toBe('true');
  return document.querySelector<HTMLElement>(`pre[aria-label="${name} code"]`)?.textContent ?? '';
}

describe('CodeExport', () => {
  it('shows curl first and each language in its tab, never the key', async () => {
    await mountExport(chatWithTools);
    expect(document.querySelector('pre')?.textContent).toContain('curl -X POST');
    expect(await open('Python')).toContain('urllib.request');
    expect(await open('TypeScript SDK')).toContain('import OpenAI from "openai"');
    expect(document.body.textContent).not.toContain('Bearer ***');
  });

  it('turns the programs into a tool loop when Tool loop is ticked, and explains curl cannot', async () => {
    await mountExport(chatWithTools);
    (document.querySelector('#code-export-tool-loop') as HTMLInputElement).click();
    await flushPromises();
    expect(await open('TypeScript')).toContain('"get_weather": (args) =>');
    await open('curl');
    expect(document.body.textContent).toContain('A tool loop needs a program');
  });

  it('offers no Tool loop for a request without tools', async () => {
    await mountExport(models);
    expect(document.querySelector('#code-export-tool-loop')).toBeNull();
  });

  it('disables the SDK tabs with the reason when no SDK method fits', async () => {
    await mountExport(models);
    expect(tab('Python SDK').getAttribute('data-p-disabled')).toBe('true');
    expect(tab('TypeScript SDK').getAttribute('title')).toMatch(/No official SDK method/);
    expect(document.body.textContent).toContain('Python SDK unavailable: No official SDK method');
  });

  it('copies the selected snippet to the clipboard', async () => {
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    await mountExport(chatWithTools);
    await open('Python');
    const copy = [...document.querySelectorAll('button')].find((b) => b.textContent?.includes('Copy Python'))!;
    copy.click();
    await flushPromises();
    expect(writeText).toHaveBeenCalledTimes(1);
    expect(writeText.mock.calls[0]![0]).toContain('os.environ["WORKBENCH_API_KEY"]');
  });

  it('names the built-in sandbox\'s key and its address now for a run made on it, and neither for another connection', async () => {
    const state: ConnectionsState = {
      activeId: 'sandbox',
      profiles: [{ id: 'sandbox', name: 'Sandbox', kind: 'sandbox', baseUrl: 'http://127.0.0.1:4011', hasKey: true, revision: 0 }],
      keyStorage: { backend: 'file', warning: null },
      sandbox: { key: 'sk-sandbox-shown', port: 4011, preferredPort: 4010, preferredSource: 'default', configuredPort: null },
    };
    await mountExport(chatWithTools, 'sandbox', state);
    const curl = document.querySelector('pre')?.textContent ?? '';
    expect(curl).toContain("#   export WORKBENCH_API_KEY='sk-sandbox-shown'");
    expect(curl).toContain('curl -X POST "${WORKBENCH_BASE_URL:-http://127.0.0.1:4011}/v1/chat/completions"');
    wrapper.unmount();
    await mountExport(chatWithTools, 'conn-remote', state);
    const other = document.querySelector('pre')?.textContent ?? '';
    expect(other).not.toContain('sk-sandbox-shown');
    expect(other).toContain('#   export WORKBENCH_API_KEY=<your API key>');
    expect(other).toContain('${WORKBENCH_BASE_URL:-http://127.0.0.1:4010}');
  });
});
