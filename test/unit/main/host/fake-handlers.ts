/**
 * A small handler set typed HandlersFor<TestContract> (the real contract plus the test-only probe
 * family), for the host and transport tests: constants, a stream of three deltas, a stream that
 * waits for cancellation, one handler that fails with a WorkbenchFailure and one that crashes.
 */
import { runMetrics } from '../../../../shared/run-metrics';
import type { AppInfo } from '../../../../shared/contract/app';
import type { ChatStreamChunk } from '../../../../shared/families/chat/contract';
import type { ConnectionsState } from '../../../../shared/contract/connections';
import { WorkbenchFailure } from '../../../../shared/contract/errors';
import type { JobSummary } from '../../../../shared/contract/jobs';
import type { RunRecord, RunStatus } from '../../../../shared/contract/runs';
import type { HandlersFor } from '../../../../main/host/handlers';
import { createLiveHandlers } from '../../../../main/live/handlers';
import { createLiveRegistry, type LiveRegistry } from '../../../../main/live/registry';
import type { LiveSessionSummary } from '../../../../shared/contract/live';
import { tickerKind } from '../live/ticker-kind';
import { stageUpload, type UploadLimits } from '../../../../main/services/upload-session';
import type { UploadLanes } from '../../../../main/services/upload-lane';
import type { UserFiles } from '../../../../main/services/user-files';
import { createProbeHandlers, type ProbeState, type TestContract } from './probe-family';

export const FAKE_INFO: AppInfo = { version: '9.9.9', shell: 'browser', platform: 'test', dataDir: '/data', logPath: '/data/logs/workbench.log', maxUploadBytes: 50 * 1024 * 1024, sandboxKeyPath: '/data/sandbox/key' };

export const FAKE_STATE: ConnectionsState = {
  activeId: 'sandbox',
  profiles: [{ id: 'sandbox', name: 'Sandbox', kind: 'sandbox', baseUrl: 'http://127.0.0.1:1', hasKey: true, revision: 0 }],
  keyStorage: { backend: 'file', warning: null },
  sandbox: { key: 'sk-sandbox-test', port: 1, preferredPort: 1, preferredSource: 'default', configuredPort: null },
};

export const FAKE_JOB: JobSummary = {
  id: 'job-1',
  kind: 'deferred-chat',
  state: 'running',
  attempt: 1,
  createdAt: 0,
  updatedAt: 0,
  runId: 'run-1',
  progress: null,
  error: null,
  wait: null,
};

/** Model name that makes chat.send wait until it is cancelled. */
export const WAIT_FOR_CANCEL = 'wait-for-cancel';
/** The detail the crashing handler throws; must never reach a caller. */
export const SECRET_DETAIL = 'disk full at /home/alice/.secret';

export function fakeRun(status: RunStatus, model: string): RunRecord {
  return {
    id: 'run-1',
    createdAt: 0,
    endpoint: 'chat.completions',
    model,
    status,
    connectionId: 'sandbox',
    connectionName: 'Sandbox',
    isSandbox: true,
    promptPreview: 'hi',
    outputPreview: status === 'completed' ? 'abc' : '',
    costTicks: null,
    totalMs: null,
    totalTokens: null,
    deferredRequestId: null,
    request: { method: 'POST', url: '/v1/chat/completions', headers: {}, body: {} },
    response: null,
    eventCount: 0,
    output: null,
    error: null,
    timings: { startedAt: 0, ttfbMs: null, totalMs: null },
    usage: null,
    retries: 0,
    metrics: runMetrics({}),
  };
}

export interface FakeHandlers {
  handlers: HandlersFor<TestContract>;
  /** What the probe family's handlers saw. */
  probe: ProbeState;
  /** Signals handed to chat.send, in call order. */
  signals: AbortSignal[];
  /** Session ids seen by handlers, in call order. */
  sessions: string[];
  /** A real live registry with the test-only ticker kind (`live.*` answer over it). */
  live: LiveRegistry;
  /** Every `live.changed` the registry announced (also passed to `onLiveChanged`). */
  liveChanges: LiveSessionSummary[];
}

export interface FakeHandlerOptions {
  /** Where `live.changed` goes (the host's emit, in the transport suite). */
  onLiveChanged?: (summary: LiveSessionSummary) => void;
  /** `userFiles.upload` stages into this, as the app does (main/services/upload-session.ts). */
  uploads?: { userFiles: UserFiles; limits?: UploadLimits; lanes?: UploadLanes };
}

/** Families these host tests do not exercise. */
const unbuilt = (): never => {
  throw new WorkbenchFailure({ code: 'unsupported', message: 'not part of the host tests' });
};

export function createFakeHandlers(options: FakeHandlerOptions = {}): FakeHandlers {
  const liveChanges: LiveSessionSummary[] = [];
  const live = createLiveRegistry({
    kinds: [tickerKind],
    onChange: (summary) => {
      liveChanges.push(summary);
      options.onLiveChanged?.(summary);
    },
  });
  const signals: AbortSignal[] = [];
  const sessions: string[] = [];
  const probe = createProbeHandlers();
  const handlers: HandlersFor<TestContract> = {
    probe: probe.handlers,
    live: createLiveHandlers(live),
    app: {
      info: (_input, ctx) => {
        sessions.push(ctx.sessionId);
        return FAKE_INFO;
      },
      openLog: () => ({ opened: false, path: FAKE_INFO.logPath }),
    },
    connections: {
      list: () => FAKE_STATE,
      save: () => {
        throw new WorkbenchFailure({ code: 'config', message: 'No key store is available on this system.' });
      },
      remove: () => {
        throw new Error(SECRET_DETAIL);
      },
      select: ({ id }) => ({ ...FAKE_STATE, activeId: id }),
      test: () => ({ ok: true, models: ['m'], latencyMs: 1 }),
      setSandboxPort: () => FAKE_STATE,
    },
    models: {
      catalogue: (input) => ({ connectionId: input?.connectionId ?? 'sandbox', isSandbox: true, fetchedAt: 0, entries: [] }),
    },
    chat: {
      send: async (input, ctx) => {
        signals.push(ctx.signal);
        const model = input.request.model;
        ctx.emit({ type: 'started', runId: 'run-1', request: fakeRun('pending', model).request, isSandbox: true });
        if (model === WAIT_FOR_CANCEL) {
          await new Promise<void>((resolve) => {
            if (ctx.signal.aborted) resolve();
            else ctx.signal.addEventListener('abort', () => resolve(), { once: true });
          });
          return fakeRun('cancelled', model);
        }
        for (const content of ['a', 'b', 'c']) ctx.emit({ type: 'delta', choice: 0, content } satisfies ChatStreamChunk);
        return fakeRun('completed', model);
      },
      follow: async ({ runId }) => ({ ...fakeRun('completed', 'm'), id: runId }),
    },
    responses: {
      create: async (input) => fakeRun('completed', input.request.model),
      retrieve: ({ id }) => ({ ...fakeRun('completed', 'm'), endpoint: 'responses.retrieve', id }),
      remove: ({ id }) => ({ ...fakeRun('completed', 'm'), endpoint: 'responses.delete', id }),
      compact: (input) => ({ ...fakeRun('completed', input.model), endpoint: 'responses.compact' }),
      tree: ({ id }) => ({ rootId: id, nodes: [] }),
      chains: () => [],
    },
    messages: {
      send: async (input) => ({ ...fakeRun('completed', input.request.model), endpoint: 'messages' }),
    },
    completions: {
      send: async (input) => ({ ...fakeRun('completed', input.request.model), endpoint: 'completions' }),
      complete: async (input) => ({ ...fakeRun('completed', input.request.model), endpoint: 'complete' }),
    },
    history: {
      search: () => ({ items: [], nextCursor: null }),
      get: ({ id }) => ({ ...fakeRun('completed', 'm'), id }),
      request: () => fakeRun('completed', 'm').request,
      events: ({ offset }) => ({ events: [], offset, total: 0 }),
      session: ({ id }) => ({
        id,
        kind: 'transcription',
        state: 'ended',
        startedAt: 0,
        endedAt: 1,
        endReason: null,
        tracks: [],
        marks: [],
        metrics: { timeToFirstAudioMs: null, turns: [], firstAudio: { count: 0, p50: null, p95: null }, firstPlayed: { count: 0, p50: null, p95: null }, finalTranscript: { count: 0, p50: null, p95: null }, bargeIns: 0 },
        timelineTotal: 0,
      }),
      timeline: ({ offset }) => ({ items: [], offset, total: 0 }),
      facets: () => ({ models: [] }),
      remove: () => ({ removed: true }),
      exportJsonl: ({ ids }) => ({ filename: 'runs.jsonl', runs: ids.length, bytes: 0, url: '/downloads/fake' }),
    },
    media: {
      url: ({ hash }) => ({ url: `/media/${hash}?t=fake`, expiresAt: null, mime: 'image/png', size: 1 }),
      channel: () => ({ transport: 'websocket', url: 'ws://127.0.0.1:1/media', token: 'fake' }),
    },
    audio: { devices: () => ({ devices: [], defaultInputId: null, defaultOutputId: null, problem: 'No media process runs in the fake host.' }) },
    tools: {
      load: ({ playground }) => ({ playground, revision: 0, tools: [] }),
      save: ({ playground, baseRevision, tools }) => ({ playground, revision: baseRevision + 1, tools }),
    },
    jobs: {
      list: () => [],
      get: ({ id }) => ({ ...FAKE_JOB, id, result: null, events: [] }),
      cancel: ({ id }) => ({ ...FAKE_JOB, id, state: 'cancelled' }),
      retryNow: ({ id }) => ({ ...FAKE_JOB, id }),
    },
    files: {
      upload: () => Promise.reject(new WorkbenchFailure({ code: 'not_found', message: 'no such file reference' })),
      uploadCancelled: ({ name, size }) => ({
        key: 'lf_cancelled',
        id: null,
        connectionId: 'sandbox',
        filename: name,
        bytes: size,
        contentType: '',
        createdAt: null,
        expiresAt: null,
        publicUrl: null,
        publicUrlExpiresAt: null,
        status: 'cancelled',
        statusMessage: 'Cancelled while it was handed to the workbench; nothing was sent to the service and nothing was kept.',
        lastSeenAt: 0,
        runId: null,
      }),
      list: () => ({ items: [], nextToken: null }),
      get: ({ id }) => {
        throw new WorkbenchFailure({ code: 'not_found', message: `no file ${id}` });
      },
      update: ({ id }) => {
        throw new WorkbenchFailure({ code: 'not_found', message: `no file ${id}` });
      },
      remove: ({ id }) => {
        throw new WorkbenchFailure({ code: 'not_found', message: `no file ${id}` });
      },
      download: ({ id }) => Promise.reject(new WorkbenchFailure({ code: 'not_found', message: `no file ${id}` })),
      createPublicUrl: ({ id }) => {
        throw new WorkbenchFailure({ code: 'not_found', message: `no file ${id}` });
      },
      revokePublicUrl: ({ id }) => {
        throw new WorkbenchFailure({ code: 'not_found', message: `no file ${id}` });
      },
      local: () => [],
      ofRun: () => null,
    },
    userFiles: {
      pick: () => [{ ref: 'ref_AAAAAAAAAAAAAAAAAAAAAA', name: 'a.txt', size: 1, type: 'text/plain' }],
      release: () => ({ released: true }),
      upload: async ({ name, type, size: announced, lane }, ctx) => {
        if (options.uploads?.lanes && lane) {
          return options.uploads.lanes.stage(options.uploads.userFiles, { name, type, size: announced }, { messages: ctx.messages, signal: ctx.signal, announce: (ticket) => ctx.emit({ lane: ticket }) }, options.uploads.limits);
        }
        if (options.uploads) return stageUpload(options.uploads.userFiles, { name, type, size: announced }, ctx.messages, ctx.signal, options.uploads.limits);
        let size = 0;
        for await (const { data } of ctx.messages) size += data.byteLength;
        return { ref: 'ref_AAAAAAAAAAAAAAAAAAAAAA', name, size, type };
      },
    },
    drafts: {
      list: () => [],
      get: ({ key }) => ({ key, revision: 0, state: null, updatedAt: 0 }),
      put: () => ({ revision: 1, updatedAt: 0 }),
      clear: () => ({ revision: 1, previous: null }),
    },
    images: { generate: unbuilt, edit: unbuilt, ofRun: () => null },
    speech: { synthesize: unbuilt, stream: unbuilt, voices: () => ({ voices: [], customError: null }), ofRun: () => null },
    transcription: { transcribe: unbuilt, ofRun: () => null },
    videos: { create: unbuilt, list: () => [], get: unbuilt, cancel: unbuilt, retry: unbuilt, dismiss: unbuilt, ofItem: () => null },
    gallery: { list: () => ({ items: [], total: 0, next: null }), get: unbuilt, remove: unbuilt, setThumb: unbuilt, save: unbuilt, ofRun: () => [], byHash: () => null, keepInput: unbuilt },
    realtime: {},
    voices: { builtIn: () => [], list: () => ({ voices: [], nextToken: null }), get: unbuilt, create: unbuilt, update: unbuilt, remove: unbuilt, referenceAudio: unbuilt, preview: unbuilt },
    sip: { numbers: () => ({ connectionId: 'sandbox', numbers: [], receiver: FAKE_SIP_RECEIVER }), register: unbuilt, keepSecret: unbuilt, receiver: () => FAKE_SIP_RECEIVER, startReceiver: () => FAKE_SIP_RECEIVER, calls: () => [], answer: unbuilt, decline: unbuilt, refer: unbuilt, hangup: unbuilt, pressKeys: unbuilt },
  };
  return { handlers, probe: probe.state, signals, sessions, live, liveChanges };
}

const FAKE_SIP_RECEIVER = { state: 'stopped' as const, url: null, port: null, problem: null, counts: { handled: 0, duplicate: 0, ignored: 0, refused: 0, malformed: 0, failed: 0 }, recent: [] };
