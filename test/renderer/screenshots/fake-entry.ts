/**
 * Browser entry for screenshots: installs the in-memory fake as `window.workbench`, shaped like
 * Electron's preload api (the bridge then uses it as in Electron), with a history that shows
 * every status.
 */
import { createFakeWorkbench } from '../fake-workbench';
import { makeCompletion, makeRecord } from '../fake-data';
import { asPreloadApi } from './as-preload';

const history = [
  makeRecord({ promptPreview: 'Summarise the release notes in three bullets', status: 'completed' }),
  makeRecord({ promptPreview: 'Write a haiku about latency', model: 'svc-3-mini', status: 'cancelled', output: makeCompletion(['Packets drift like leaves']) }),
  makeRecord({
    promptPreview: 'Translate this contract clause to French',
    status: 'error',
    output: makeCompletion(['Le présent contrat']),
    error: { code: 'stream_incomplete', message: 'the stream ended before [DONE]', status: 200, requestId: 'req-err-1' },
  }),
  makeRecord({ promptPreview: 'Plan a three-day trip to Lisbon', status: 'pending', output: null, costTicks: null, totalMs: null, deferredRequestId: 'def-1' }),
  makeRecord({ promptPreview: 'Explain the difference between TCP and UDP', status: 'incomplete', isSandbox: false, connectionName: 'Production' }),
];

window.workbench = asPreloadApi(createFakeWorkbench({ chatMode: 'auto', history, keyWarning: null }));
