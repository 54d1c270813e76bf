import { afterEach, describe, expect, it } from 'vitest';
import { shallowRef } from 'vue';
import { mount, type VueWrapper } from '@vue/test-utils';
import PrimeVue from 'primevue/config';
import { createPinia, setActivePinia } from 'pinia';
import type { WorkbenchError } from '@shared/contract/errors';
import ErrorBlock from '@/components/ErrorBlock.vue';
import { provideWorkbench, type LinkStatus } from '@/api';
import { useConnectionsStore } from '@/stores/connections';
import { createFakeWorkbench } from '../../fake-workbench';

let w: VueWrapper | undefined;
afterEach(() => {
  w?.unmount();
  provideWorkbench(createFakeWorkbench(), shallowRef<LinkStatus>('connected'));
});

function mountError(error: WorkbenchError, link: LinkStatus = 'connected'): VueWrapper {
  const pinia = createPinia();
  setActivePinia(pinia);
  provideWorkbench(createFakeWorkbench(), shallowRef<LinkStatus>(link));
  return mount(ErrorBlock, { props: { error }, global: { plugins: [[PrimeVue, { theme: 'none' }], pinia] } });
}

describe('ErrorBlock', () => {
  it("shows a refused key's own words from the service and a button that opens Connections", async () => {
    w = mountError({ code: 'api_error', status: 401, message: 'Incorrect API key provided: xai-****abcd.', requestId: 'req-1', reason: 'key_refused' });
    expect(w.text()).toContain('Incorrect API key provided: xai-****abcd.');
    expect(w.text()).toContain('update it in Connections');
    const open = w.findAll('button').find((b) => b.text() === 'Open Connections')!;
    await open.trigger('click');
    expect(useConnectionsStore().dialogOpen).toBe(true);
  });

  it('a refused client secret (a realtime call\'s, expired): no key advice and no Connections button, start again instead', () => {
    w = mountError({ code: 'api_error', status: 401, message: 'The WebSocket to 127.0.0.1:5 was refused. The service refused the client secret (401): The client secret offered as the subprotocol expired at 2026-11-27T19:26:00.000Z (sandbox clock).', reason: 'secret_refused' });
    expect(w.text()).toContain('Start the call again: a new client secret is minted each time.');
    expect(w.text()).not.toContain('update it in Connections');
    expect(w.findAll('button').some((b) => b.text() === 'Open Connections')).toBe(false);
  });

  it("a realtime socket's wrong key (the service's 400 \"Incorrect API key\", worded by main as refused) offers Connections; another 400 does not", () => {
    w = mountError({ code: 'api_error', status: 400, message: 'The WebSocket to 127.0.0.1:5 was refused. The service refused the API key (400): Incorrect API key provided: sk***89. Check the key in Connections.', reason: 'key_refused' });
    expect(w.text()).toContain('update it in Connections');
    expect(w.findAll('button').some((b) => b.text() === 'Open Connections')).toBe(true);
    w.unmount();
    w = mountError({ code: 'api_error', status: 400, message: 'The WebSocket to 127.0.0.1:5 was refused. The service rejected the request (400): reasoning.effort must be "high" or "none".' });
    expect(w.text()).not.toContain('update it in Connections');
    expect(w.findAll('button').some((b) => b.text() === 'Open Connections')).toBe(false);
  });

  it("a 403 joining a SIP call (main: it needs the number's team's key) offers Connections; another 403 (a file of another team) does not", async () => {
    w = mountError({ code: 'api_error', status: 403, message: "The WebSocket to 127.0.0.1:5 was refused. The service denied access (403): This call belongs to another team. Joining a SIP call needs the API key of the team that owns its number.", reason: 'team_key_needed' });
    expect(w.text()).toContain("set that team's key in Connections");
    const open = w.findAll('button').find((b) => b.text() === 'Open Connections')!;
    await open.trigger('click');
    expect(useConnectionsStore().dialogOpen).toBe(true);
    w.unmount();
    w = mountError({ code: 'api_error', status: 403, message: "The service denied access (403): file-abc belongs to another team. Check the key's team, permissions and credits." });
    expect(w.text()).toContain('the resource may belong to another team');
    expect(w.text()).not.toContain('Connections');
    expect(w.findAll('button').some((b) => b.text() === 'Open Connections')).toBe(false);
  });

  it("decides its advice on the error's reason, not on the message's words", () => {
    // Main may reword any message: the advice must follow the reason it marked.
    w = mountError({ code: 'api_error', status: 401, message: 'Your credentials were not accepted.', reason: 'key_refused' });
    expect(w.text()).toContain('update it in Connections');
    expect(w.findAll('button').some((b) => b.text() === 'Open Connections')).toBe(true);
    w.unmount();
    w = mountError({ code: 'api_error', status: 401, message: 'The service refused the API key (401): gone. Check the key in Connections.', reason: 'secret_refused' });
    expect(w.text()).toContain('Start the call again');
    expect(w.text()).not.toContain('update it in Connections');
    expect(w.findAll('button').some((b) => b.text() === 'Open Connections')).toBe(false);
    w.unmount();
    w = mountError({ code: 'api_error', status: 403, message: 'Another team owns this number.', reason: 'team_key_needed' });
    expect(w.text()).toContain("set that team's key in Connections");
    w.unmount();
    // The old words with no reason: no key advice (a 400 saying "refused the API key" is not read).
    w = mountError({ code: 'api_error', status: 400, message: 'The service refused the API key (400): Incorrect API key provided. Check the key in Connections.' });
    expect(w.text()).not.toContain('update it in Connections');
    expect(w.findAll('button').some((b) => b.text() === 'Open Connections')).toBe(false);
  });

  it('offers no Connections button for errors Connections cannot fix', () => {
    w = mountError({ code: 'api_error', status: 429, message: 'Slow down.' });
    expect(w.findAll('button').some((b) => b.text() === 'Open Connections')).toBe(false);
  });

  it('stays quiet about a call that failed because the page token is missing or refused: the one banner says it', () => {
    const error: WorkbenchError = { code: 'network', message: 'The workbench process is running but refused this page\u2019s access token.' };
    for (const link of ['no-token', 'unauthorized'] as const) {
      w = mountError(error, link);
      expect(w.find('.error-block').exists()).toBe(false);
      w.unmount();
    }
    w = mountError(error, 'connected');
    expect(w.find('.error-block').exists()).toBe(true);
  });
});
