/**
 * An in-memory WorkbenchApi for renderer tests (and the screenshot harness): connections,
 * catalogue and history held in arrays, chat streams either scripted (auto) or driven step by
 * step by the test (manual). Calls are recorded so tests can assert what was sent.
 */
import type { WorkbenchApi, StreamHandle } from '../../shared/contract/api';
import type { ChatSendInput, ChatStreamChunk } from '../../shared/families/chat/contract';
import type { ConnectionProfile, ConnectionsState, SandboxDetails, SaveConnectionInput } from '../../shared/contract/connections';
import { WorkbenchFailure, type WorkbenchError } from '../../shared/contract/errors';
import type { HistorySearchInput } from '../../shared/contract/history';
import type { JobSummary } from '../../shared/contract/jobs';
import type { Catalogue, CatalogueEntry } from '../../shared/families/models/contract';
import type { CapturedRequest, Endpoint, RunRecord, RunStatus } from '../../shared/contract/runs';
import type { ResponseNode } from '../../shared/families/responses/contract';
import type { FileDownloadChunk, FileDownloadResult, FileRecord, FileUploadChunk, FileUploadInput } from '../../shared/families/files/contract';
import type { ToolPlayground, ToolSetState } from '../../shared/contract/tools';
import type { Draft, DraftChange } from '../../shared/contract/drafts';
import type { ToolSpec } from '../../shared/tools/tool-spec';
import { mergeToolSets } from '../../shared/tools/tool-set-merge';
import type { ChatRequest } from '../../shared/wire/chat';
import type { GalleryItem, GalleryKind } from '../../shared/contract/gallery';
import type { ImageEditInput, ImageGenerateInput, ImageRunChunk, ImageRunResult } from '../../shared/families/images/contract';
import type { VideoCreateInput, VideoJob } from '../../shared/families/videos/contract';
import type { TranscribeResult } from '../../shared/families/transcription/contract';
import { createFakeLive, type FakeLiveControls } from './fake-live';
import { createFakeSpeech, type FakeSpeechControls } from './fake-speech';
import type { FakeSession } from './fake-session';
import { createFakeVoices, type FakeVoicesControls } from './fake-voices';
import { createFakeSip, type FakeSipControls } from './fake-sip';
import { createFakeAudio, type FakeAudioControls } from './fake-audio';
import type { NativeAudioDevices } from '../../shared/contract/audio';
import type { CustomVoice } from '../../shared/families/voices/contract';
import { fakeEventsOf, makeCompletion, makeRecord, makeUsage, sampleCatalogueEntries, type RecordOverrides } from './fake-data';

/** A text stream (any family) the test drives: emit chunks, then finish or fail it. */
export interface FakeStream {
  /** `chat.send`, `responses.create`, `messages.send`, `completions.send`, `completions.complete`. */
  readonly method: string;
  readonly input: ChatSendInput;
  readonly cancelled: boolean;
  emit(chunk: ChatStreamChunk): void;
  /** Ends the run with a record (status completed unless given). */
  finish(over?: RecordOverrides): void;
  fail(error: WorkbenchError): void;
}

export interface FakeWorkbenchOptions {
  entries?: CatalogueEntry[];
  history?: RunRecord[];
  /** 'auto' streams a scripted answer; 'manual' leaves each stream to the test. */
  chatMode?: 'auto' | 'manual';
  keyWarning?: string | null;
  /** The built-in sandbox's details as main reports them (default: listening on its preferred 4010). */
  sandbox?: Partial<SandboxDetails>;
  /** Cancel rejects the run with a `cancelled` error instead of resolving a cancelled record. */
  cancelRejects?: boolean;
  /** Makes models.catalogue reject with this error. */
  catalogueError?: WorkbenchError;
  /** Listings the catalogue says it could not read (Catalogue.notes). */
  catalogueNotes?: Catalogue['notes'];
  /** Tool sets saved by an earlier session. */
  toolSets?: Partial<Record<ToolPlayground, ToolSpec[]>>;
  /** Files on the fake service. */
  files?: FileRecord[];
  /** Drafts kept by an earlier session, by key. */
  drafts?: Record<string, unknown>;
  /** Gallery items, newest first (`gallery.list` pages them). */
  gallery?: GalleryItem[];
  /** 'auto' answers each image request (started, sent, downloading k/n, result); 'manual' leaves it to the test. */
  imagesMode?: 'auto' | 'manual';
  /** Video jobs `videos.list` returns (newest first). */
  videoJobs?: VideoJob[];
  /** Results of earlier image runs (`images.ofRun` answers them). */
  imageResults?: ImageRunResult[];
  /** `history.request`'s answer by run id (the request with its media bytes); default: the record's request. */
  requestsAsSent?: Record<string, CapturedRequest>;
  /** Recorded live sessions by run id (`history.session` / `history.timeline`; see fake-session.ts). */
  sessions?: Record<string, FakeSession>;
  /** Custom voices on the fake service (`voices.*`, see fake-voices.ts). */
  voices?: CustomVoice[];
  /** Native audio devices `audio.devices` answers (see fake-audio.ts); default one mic and one output. */
  nativeDevices?: NativeAudioDevices;
}

export interface FakeWorkbench extends WorkbenchApi {
  readonly controls: {
    calls: { method: string; input: unknown }[];
    streams: FakeStream[];
    history: RunRecord[];
    entries: CatalogueEntry[];
    catalogueError: WorkbenchError | undefined;
    /** The `connections.changed` listeners (emit to simulate another window). */
    emitConnectionsChanged(state: ConnectionsState): void;
    /** Response-chain nodes the `responses.*` calls read and write. */
    responseNodes: ResponseNode[];
    /** Saved tool sets per playground (`tools.load` / `tools.save`). */
    toolSets: Partial<Record<ToolPlayground, ToolSpec[]>>;
    /**
     * Saves the set as another window would (merged like main does) and emits `tools.changed`
     * unless `silent` (the event not delivered yet).
     */
    saveToolSetElsewhere(playground: ToolPlayground, tools: ToolSpec[], options?: { baseRevision?: number; silent?: boolean }): ToolSetState;
    /** Jobs `jobs.list` returns (newest first); `jobs.cancel` marks one cancelled. */
    jobs: JobSummary[];
    /** The `jobs.changed` listeners (emit to simulate main). */
    emitJobChanged(job: JobSummary): void;
    /** How many `jobs.changed` listeners are attached. */
    jobListeners(): number;
    /** The service's files (`files.list` pages them; actions change them). */
    files: FileRecord[];
    /** Uploads in flight, driven by the test. */
    uploads: FakeUpload[];
    /** Downloads in flight, driven by the test. */
    downloads: FakeDownload[];
    /** Emits `files.changed`. */
    emitFileChanged(record: FileRecord): void;
    /** Kept drafts by key (`drafts.*` read and write them; a put emits `drafts.changed` as main does). */
    drafts: Map<string, Draft>;
    /** Another window writes a draft: stored with the next revision and announced. */
    putDraftFromElsewhere(key: string, state: unknown): void;
    /** The gallery's items, newest first (`gallery.*` read and change them). */
    gallery: GalleryItem[];
    /** Emits `gallery.changed` (adds, replaces or removes the item in `gallery` first). */
    emitGalleryChanged(change: { item: GalleryItem | null; id: string; removed: boolean }): void;
    /** Image requests (`images.generate` / `images.edit`), in order. */
    imageStreams: FakeImageStream[];
    /** Results `images.ofRun` answers, by run id (every finished image request is added). */
    imageResults: Map<string, ImageRunResult>;
    /** Video jobs (`videos.*` read and change them), newest first. */
    videoJobs: VideoJob[];
    /** Emits `videos.changed` (replaces or adds the job in `videoJobs` first). */
    emitVideoChanged(job: VideoJob): void;
    /** Live sessions (`live.*`), see fake-live.ts. */
    live: FakeLiveControls;
    /** Speech requests and voices (`speech.*`), see fake-speech.ts. */
    speech: FakeSpeechControls;
    /** What `transcription.transcribe` answers next: a result (the run id and name filled in) or an error. */
    transcription: { answer: Omit<TranscribeResult, 'runId' | 'filename'> | WorkbenchError | null; results: Map<string, TranscribeResult> };
    /** Custom voices (`voices.*`), see fake-voices.ts. */
    voices: FakeVoicesControls;
    /** Native audio devices (`audio.*`), see fake-audio.ts. */
    audio: FakeAudioControls;
    /** Phone numbers, the receiver and ringing calls (`sip.*`), see fake-sip.ts. */
    sip: FakeSipControls;
  };
}

/** An image request the test drives (manual mode), or watches (auto mode). */
export interface FakeImageStream {
  readonly method: 'images.generate' | 'images.edit';
  readonly input: ImageGenerateInput | ImageEditInput;
  readonly runId: string;
  readonly cancelled: boolean;
  emit(chunk: ImageRunChunk): void;
  /** Answers `n` new gallery images (added to the gallery, announced) and resolves the result. */
  finish(over?: Partial<ImageRunResult>): ImageRunResult;
  fail(error: WorkbenchError): void;
}

let galleryCounter = 0;

/** A gallery item as main would give it (fake media URLs; a thumbnail unless `thumbUrl: null`). */
export function makeGalleryItem(over: Partial<GalleryItem> = {}): GalleryItem {
  const n = ++galleryCounter;
  const id = over.id ?? `gal_fake${n.toString().padStart(6, '0')}`;
  const kind: GalleryKind = over.kind ?? 'image';
  const hash = over.hash ?? n.toString(16).padStart(64, '0');
  const mime = over.mime ?? (kind === 'video' ? 'video/mp4' : 'image/png');
  return {
    id,
    kind,
    origin: 'generated',
    hash,
    mime,
    bytes: 120_000,
    width: 1024,
    height: 1024,
    duration: kind === 'video' ? 8 : null,
    prompt: 'a red fox in the snow',
    revisedPrompt: null,
    model: kind === 'video' ? 'svc-video-1' : 'svc-image-1',
    name: `${id}.${kind === 'video' ? 'mp4' : 'png'}`,
    createdAt: 1_760_000_000_000 - n * 1000,
    runId: null,
    jobId: null,
    sourceIds: [],
    url: { url: `/media/${hash}?t=fake`, expiresAt: null, mime, size: over.bytes ?? 120_000 },
    thumbUrl: { url: `/media/thumb-${hash}?t=fake`, expiresAt: null, mime: 'image/webp', size: 9_000 },
    ...over,
  };
}

/** A video job as main would give it. */
export function makeVideoJob(over: Partial<VideoJob> = {}): VideoJob {
  return {
    id: 'job_fake0001',
    cardId: 'card_fake0001',
    mode: 'generate',
    state: 'pending',
    connectionId: 'sandbox',
    model: 'svc-video-1',
    prompt: 'a paper boat on a river',
    duration: 8,
    aspectRatio: '16:9',
    resolution: '720p',
    inputs: [],
    requestId: 'vid-req-1',
    progress: null,
    createdAt: 1_760_000_000_000,
    updatedAt: 1_760_000_000_000,
    finishedAt: null,
    costTicks: null,
    error: null,
    storageError: null,
    fileOutput: null,
    video: null,
    runId: 'run-video-1',
    attempt: 1,
    nextPollAt: null,
    waiting: null,
    request: null,
    ...over,
  };
}

/** An upload the test drives: progress, then finish (complete) or fail. */
export interface FakeUpload {
  readonly input: FileUploadInput;
  readonly cancelled: boolean;
  progress(sent: number, bytesPerSecond: number): void;
  finish(over?: Partial<FileRecord>): FileRecord;
  fail(error: WorkbenchError): void;
}

export interface FakeDownload {
  readonly id: string;
  progress(received: number, total: number): void;
  finish(result: FileDownloadResult): void;
}

/** A file record as the service and the store would give it. */
export function makeFileRecord(over: Partial<FileRecord> = {}): FileRecord {
  return {
    key: `lf_${over.id ?? 'x'}`,
    id: 'file_00000000-0000-0000-0000-000000000001',
    connectionId: 'sandbox',
    filename: 'notes.txt',
    bytes: 1200,
    contentType: 'text/plain',
    createdAt: 1_760_000_000_000,
    expiresAt: null,
    publicUrl: null,
    publicUrlExpiresAt: null,
    status: 'complete',
    statusMessage: null,
    lastSeenAt: 1_760_000_000_000,
    runId: null,
    ...over,
  };
}

const SANDBOX: ConnectionProfile = { id: 'sandbox', name: 'Sandbox', kind: 'sandbox', baseUrl: 'http://127.0.0.1:4010', hasKey: false, revision: 0 };

const FAMILY_ENDPOINTS: Record<string, { endpoint: Endpoint; path: string }> = {
  'chat.send': { endpoint: 'chat.completions', path: '/v1/chat/completions' },
  'responses.create': { endpoint: 'responses', path: '/v1/responses' },
  'messages.send': { endpoint: 'messages', path: '/v1/messages' },
  'completions.send': { endpoint: 'completions', path: '/v1/completions' },
  'completions.complete': { endpoint: 'complete', path: '/v1/complete' },
};

/** The interface's own answer object for the streamed texts (choice i = texts[i]). */
function outputFor(endpoint: Endpoint, model: string, text: string[], status: RunStatus): RunRecord['output'] {
  const joined = text.join('');
  switch (endpoint) {
    case 'responses':
      return {
        id: 'resp-fake-1', object: 'response', created_at: 1_760_000_000, model, status: status === 'completed' ? 'completed' : 'incomplete', store: true,
        previous_response_id: null,
        output: [{ id: 'msg_resp-fake-1', type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: joined, annotations: [], logprobs: [] }] }],
      };
    case 'messages':
      return { id: 'msg-fake-1', type: 'message', role: 'assistant', model, content: [{ type: 'text', text: joined }], stop_reason: 'end_turn', stop_sequence: null };
    case 'completions':
      return { id: 'cmpl-fake-1', object: 'text_completion', created: 1_760_000_000, model, choices: text.map((t, index) => ({ index, text: t ?? '', finish_reason: 'stop' })) };
    case 'complete':
      return { type: 'completion', id: 'compl-fake-1', completion: joined, model, stop_reason: 'stop_sequence' };
    default:
      return makeCompletion(text, { model });
  }
}

function promptOf(body: Record<string, unknown>): string {
  if (typeof body.prompt === 'string') return body.prompt;
  if (typeof body.input === 'string') return body.input;
  const messages = Array.isArray(body.messages) ? (body.messages as { role?: string; content?: unknown }[]) : Array.isArray(body.input) ? (body.input as { role?: string; content?: unknown }[]) : [];
  const first = messages.find((m) => m.role === 'user');
  return typeof first?.content === 'string' ? first.content : '';
}

function streamRecord(method: string, input: ChatSendInput, text: string[], status: RunStatus, over: RecordOverrides = {}): RunRecord {
  const { endpoint, path } = FAMILY_ENDPOINTS[method] ?? FAMILY_ENDPOINTS['chat.send']!;
  const req = input.request as unknown as Record<string, unknown> & { model: string };
  return makeRecord({
    endpoint,
    model: req.model,
    status,
    promptPreview: promptOf(req),
    request: { method: 'POST', url: `http://127.0.0.1:4010${path}`, headers: { 'content-type': 'application/json' }, body: req },
    output: outputFor(endpoint, req.model, text, status),
    ...over,
  });
}

export function createFakeWorkbench(opts: FakeWorkbenchOptions = {}): FakeWorkbench {
  const calls: { method: string; input: unknown }[] = [];
  const streams: FakeStream[] = [];
  const history = [...(opts.history ?? [])];
  const entries = [...(opts.entries ?? sampleCatalogueEntries())];
  const listeners = new Set<(s: ConnectionsState) => void>();
  const jobListeners = new Set<(j: JobSummary) => void>();
  const fileListeners = new Set<(r: FileRecord) => void>();
  const toolListeners = new Set<(s: ToolSetState) => void>();
  /** Every revision of each tool set (index = revision), to merge stale saves as main does. */
  const toolRevisions: Partial<Record<ToolPlayground, ToolSpec[][]>> = {};
  const draftListeners = new Set<(c: DraftChange) => void>();
  const galleryListeners = new Set<(c: { item: GalleryItem | null; id: string; removed: boolean }) => void>();
  const videoListeners = new Set<(j: VideoJob) => void>();
  const drafts = new Map<string, Draft>(Object.entries(opts.drafts ?? {}).map(([key, state]) => [key, { key, revision: 1, state, updatedAt: 1 }]));
  const writeDraft = (key: string, state: unknown, writer: string): Draft => {
    const draft = { key, revision: (drafts.get(key)?.revision ?? 0) + 1, state, updatedAt: Date.now() };
    drafts.set(key, draft);
    draftListeners.forEach((l) => l({ key, revision: draft.revision, writer, cleared: state === null }));
    return draft;
  };
  const fakeLive = createFakeLive();
  // `record` is defined below; the fake calls it only once a test sends a request.
  const fakeSpeech = createFakeSpeech((method, input) => record(method, input));
  const fakeVoices = createFakeVoices((method, input) => record(method, input), opts.voices);
  const fakeAudio = createFakeAudio((method, input) => record(method, input), opts.nativeDevices);
  const fakeSip = createFakeSip((method, input) => record(method, input));
  let profiles: ConnectionProfile[] = [SANDBOX];
  let sandbox: SandboxDetails = { key: 'sk-sandbox-fake0123', port: 4010, preferredPort: 4010, preferredSource: 'default', configuredPort: null, ...opts.sandbox };
  let activeId = 'sandbox';
  let nextProfile = 1;
  const controls: FakeWorkbench['controls'] = {
    calls,
    streams,
    history,
    entries,
    catalogueError: opts.catalogueError,
    emitConnectionsChanged: (s) => listeners.forEach((l) => l(s)),
    responseNodes: [],
    toolSets: { ...(opts.toolSets ?? {}) },
    jobs: [],
    emitJobChanged: (job) => jobListeners.forEach((l) => l(job)),
    jobListeners: () => jobListeners.size,
    files: [...(opts.files ?? [])],
    uploads: [],
    downloads: [],
    emitFileChanged: (r) => fileListeners.forEach((l) => l(r)),
    saveToolSetElsewhere: (playground, tools, options) =>
      saveToolSet(playground, options?.baseRevision ?? revisionsOf(playground).length - 1, tools, !options?.silent),
    drafts,
    putDraftFromElsewhere: (key, state) => void writeDraft(key, state, 'another-window'),
    gallery: [...(opts.gallery ?? [])],
    emitGalleryChanged: (change) => {
      const i = controls.gallery.findIndex((g) => g.id === change.id);
      if (change.removed) {
        if (i >= 0) controls.gallery.splice(i, 1);
      } else if (change.item) {
        if (i >= 0) controls.gallery[i] = change.item;
        else controls.gallery.unshift(change.item);
      }
      galleryListeners.forEach((l) => l(change));
    },
    imageStreams: [],
    transcription: { answer: null, results: new Map() },
    imageResults: new Map((opts.imageResults ?? []).map((r) => [r.runId, r])),
    videoJobs: [...(opts.videoJobs ?? [])],
    emitVideoChanged: (job) => {
      const i = controls.videoJobs.findIndex((j) => j.id === job.id);
      if (i >= 0) controls.videoJobs[i] = job;
      else controls.videoJobs.unshift(job);
      videoListeners.forEach((l) => l(job));
    },
    live: fakeLive.controls,
    speech: fakeSpeech.controls,
    voices: fakeVoices.controls,
    audio: fakeAudio.controls,
    sip: fakeSip.controls,
  };
  const revisionsOf = (playground: ToolPlayground): ToolSpec[][] => (toolRevisions[playground] ??= [[...(controls.toolSets[playground] ?? [])]]);
  const toolState = (playground: ToolPlayground): ToolSetState => {
    const revisions = revisionsOf(playground);
    return { playground, revision: revisions.length - 1, tools: [...(controls.toolSets[playground] ?? [])] };
  };
  function saveToolSet(playground: ToolPlayground, baseRevision: number, tools: ToolSpec[], emit = true): ToolSetState {
    const revisions = revisionsOf(playground);
    const current = toolState(playground);
    let next = tools;
    if (baseRevision < current.revision) {
      const merged = mergeToolSets(revisions[baseRevision] ?? [], tools, current.tools);
      if (!merged.ok) throw new WorkbenchFailure({ code: 'conflict', message: `Not saved: ${merged.conflicts.join(', ')} also changed in another window.`, issues: merged.conflicts.map((path) => ({ path, message: 'changed in another window too' })) });
      next = merged.tools;
    }
    revisions.push(next);
    controls.toolSets[playground] = next;
    const state = toolState(playground);
    if (emit) toolListeners.forEach((l) => l(state));
    return state;
  }
  const state = (): ConnectionsState => ({
    activeId,
    profiles: profiles.map((p) => ({ ...p })),
    keyStorage: { backend: opts.keyWarning ? 'basic_text' : 'safeStorage', warning: opts.keyWarning ?? null },
    sandbox: { ...sandbox },
  });
  const record = (method: string, input: unknown): void => {
    calls.push({ method, input });
  };
  const notFound = (what: string): WorkbenchFailure => new WorkbenchFailure({ code: 'not_found', message: `${what} not found` });

  const send = (input: ChatSendInput, onChunk: (c: ChatStreamChunk) => void): StreamHandle<RunRecord> => textStream('chat.send', input, onChunk);

  function textStream(method: string, input: ChatSendInput, onChunk: (c: ChatStreamChunk) => void): StreamHandle<RunRecord> {
    record(method, input);
    let settle!: { resolve: (r: RunRecord) => void; reject: (e: unknown) => void };
    const result = new Promise<RunRecord>((resolve, reject) => (settle = { resolve, reject }));
    const texts: string[] = [];
    let done = false;
    let cancelled = false;
    const stream: FakeStream = {
      method,
      input,
      get cancelled() {
        return cancelled;
      },
      emit(chunk) {
        if (done) return;
        if (chunk.type === 'delta' && chunk.content) texts[chunk.choice] = (texts[chunk.choice] ?? '') + chunk.content;
        onChunk(chunk);
      },
      finish(over = {}) {
        if (done) return;
        done = true;
        settle.resolve(streamRecord(method, input, texts.map((t) => t ?? ''), 'completed', over));
      },
      fail(error) {
        if (done) return;
        done = true;
        settle.reject(new WorkbenchFailure(error));
      },
    };
    streams.push(stream);
    const streamId = `fake-stream-${streams.length.toString().padStart(4, '0')}`;
    if ((opts.chatMode ?? 'manual') === 'auto') void autoStream(stream);
    return {
      streamId,
      result,
      cancel: async () => {
        record('streams.cancel', { streamId });
        if (done) return;
        cancelled = true;
        done = true;
        if (opts.cancelRejects) {
          settle.reject(new WorkbenchFailure({ code: 'cancelled', message: 'cancelled by the user' }));
          return;
        }
        settle.resolve(streamRecord(method, input, texts.map((t) => t ?? ''), 'cancelled', { usage: null, costTicks: null }));
      },
    };
  }

  function findFile(id: string): FileRecord {
    const f = controls.files.find((x) => x.id === id);
    if (!f) throw notFound(`file ${id}`);
    return f;
  }

  function fileUpload(input: FileUploadInput, onChunk: (c: FileUploadChunk) => void): StreamHandle<FileRecord> {
    record('files.upload', input);
    let settle!: { resolve: (r: FileRecord) => void; reject: (e: unknown) => void };
    const result = new Promise<FileRecord>((resolve, reject) => (settle = { resolve, reject }));
    const n = controls.uploads.length + 1;
    const name = `upload-${n}.bin`;
    let done = false;
    let cancelled = false;
    const upload: FakeUpload = {
      input,
      get cancelled() {
        return cancelled;
      },
      progress: (sent, bytesPerSecond) => onChunk({ type: 'progress', sent, total: 1000, bytesPerSecond }),
      finish(over = {}) {
        const f = makeFileRecord({ key: `lf_up${n}`, id: `file_up${n}`, filename: name, ...over });
        controls.files.unshift(f);
        done = true;
        settle.resolve(f);
        return f;
      },
      fail(error) {
        done = true;
        settle.reject(new WorkbenchFailure(error));
      },
    };
    controls.uploads.push(upload);
    onChunk({ type: 'started', key: `lf_up${n}`, runId: `run-up${n}`, filename: name, total: 1000 });
    return {
      streamId: `fake-upload-${n.toString().padStart(4, '0')}`,
      result,
      cancel: async () => {
        record('streams.cancel', { upload: n });
        if (done) return;
        cancelled = true;
        done = true;
        settle.resolve(makeFileRecord({ key: `lf_up${n}`, id: null, filename: name, status: 'cancelled', statusMessage: 'Cancelled after 400 bytes of 1000 bytes; nothing was kept on the service.' }));
      },
    };
  }

  function fileDownload(ref: { id: string; connectionId?: string }, onChunk: (c: FileDownloadChunk) => void): StreamHandle<FileDownloadResult> {
    const id = ref.id;
    record('files.download', ref);
    let settle!: (r: FileDownloadResult) => void;
    const result = new Promise<FileDownloadResult>((resolve) => (settle = resolve));
    controls.downloads.push({ id, progress: (received, total) => onChunk({ type: 'progress', received, total, bytesPerSecond: 1000 }), finish: (r) => settle(r) });
    return { streamId: `fake-download-${controls.downloads.length.toString().padStart(4, '0')}`, result, cancel: async () => undefined };
  }

  function findItem(id: string): GalleryItem {
    const item = controls.gallery.find((g) => g.id === id);
    if (!item) throw notFound(`gallery item ${id}`);
    return item;
  }

  function findJob(id: string): VideoJob {
    const job = controls.videoJobs.find((j) => j.id === id);
    if (!job) throw notFound(`job ${id}`);
    return job;
  }

  function imageStream(method: FakeImageStream['method'], input: ImageGenerateInput | ImageEditInput, onChunk: (c: ImageRunChunk) => void): StreamHandle<ImageRunResult> {
    record(method, input);
    let settle!: { resolve: (r: ImageRunResult) => void; reject: (e: unknown) => void };
    const result = new Promise<ImageRunResult>((resolve, reject) => (settle = { resolve, reject }));
    const k = controls.imageStreams.length + 1;
    const runId = `run-img${k}`;
    let done = false;
    let cancelled = false;
    const s: FakeImageStream = {
      method,
      input,
      runId,
      get cancelled() {
        return cancelled;
      },
      emit(chunk) {
        if (!done) onChunk(chunk);
      },
      finish(over = {}) {
        const n = input.n ?? 1;
        const images = Array.from({ length: n }, (_, i) =>
          makeGalleryItem({ id: `gal_run${k}img${i}`, origin: method === 'images.edit' ? 'edited' : 'generated', prompt: input.prompt, revisedPrompt: `${input.prompt} (revised ${i + 1})`, model: input.model, runId, bytes: 150_000 + i }),
        );
        const res: ImageRunResult = { runId, images, costTicks: n * 700_000_000, inputs: [], durationMs: 1200, ...over };
        controls.imageResults.set(runId, res);
        if (done) return res;
        done = true;
        for (const img of [...res.images].reverse()) controls.emitGalleryChanged({ item: img, id: img.id, removed: false });
        settle.resolve(res);
        return res;
      },
      fail(error) {
        if (done) return;
        done = true;
        settle.reject(new WorkbenchFailure(error));
      },
    };
    controls.imageStreams.push(s);
    if ((opts.imagesMode ?? 'auto') === 'auto') {
      void (async () => {
        const tick = (): Promise<void> => new Promise((r) => setTimeout(r, 5));
        s.emit({ type: 'started', runId });
        await tick();
        s.emit({ type: 'sent' });
        const n = input.n ?? 1;
        for (let i = 0; i <= n; i++) {
          if (cancelled) return;
          s.emit({ type: 'downloading', done: i, total: n });
          await tick();
        }
        s.finish();
      })();
    }
    return {
      streamId: `fake-image-${k.toString().padStart(4, '0')}`,
      result,
      cancel: async () => {
        record('streams.cancel', { image: k });
        if (done) return;
        cancelled = true;
        done = true;
        settle.reject(new WorkbenchFailure({ code: 'cancelled', message: 'cancelled by the user' }));
      },
    };
  }

  const api: WorkbenchApi = {
    live: fakeLive.api,
    speech: fakeSpeech.api,
    voices: fakeVoices.api,
    realtime: {},
    audio: fakeAudio.api,
    sip: fakeSip.api,
    app: {
      info: async () => ({
        version: '0.1.0-test',
        shell: 'browser',
        platform: 'linux',
        dataDir: '/tmp/workbench-test',
        logPath: '/tmp/workbench-test/logs/workbench.log',
        maxUploadBytes: 50 * 1024 * 1024,
        sandboxKeyPath: '/tmp/workbench-test/sandbox/key',
      }),
      openLog: async () => (record('app.openLog', undefined), { opened: false, path: '/tmp/workbench-test/logs/workbench.log' }),
    },
    streams: {
      cancel: async (input) => {
        record('streams.cancel', input);
        return { cancelled: false };
      },
    },
    // The fake runs no sessions: cancel finds nothing, send and close look like an unknown id.
    ops: {
      cancel: async (input) => (record('ops.cancel', input), { cancelled: false }),
      subscribe: async (input) => (record('ops.subscribe', input), null),
      unsubscribe: async (input) => (record('ops.unsubscribe', input), null),
      send: async (input) => {
        record('ops.send', input);
        throw new WorkbenchFailure({ code: 'not_found', message: `There is no running session ${input.id} in this window.` });
      },
      close: async (input) => {
        record('ops.close', input);
        throw new WorkbenchFailure({ code: 'not_found', message: `There is no running session ${input.id} in this window.` });
      },
    },
    connections: {
      list: async () => (record('connections.list', undefined), state()),
      save: async (input: SaveConnectionInput) => {
        record('connections.save', input);
        const existing = input.id ? profiles.find((p) => p.id === input.id) : undefined;
        if (existing && input.baseRevision !== undefined && input.baseRevision !== existing.revision) {
          throw new WorkbenchFailure({ code: 'conflict', message: `Not saved: "${existing.name}" was changed in another window since this form opened.` });
        }
        const profile: ConnectionProfile = existing
          ? { ...existing, name: input.name, baseUrl: input.baseUrl, hasKey: existing.hasKey || Boolean(input.apiKey), revision: existing.revision + 1 }
          : { id: `remote-${nextProfile++}`, name: input.name, kind: 'remote', baseUrl: input.baseUrl, hasKey: Boolean(input.apiKey), revision: 1 };
        profiles = existing ? profiles.map((p) => (p.id === profile.id ? profile : p)) : [...profiles, profile];
        return profile;
      },
      remove: async ({ id }) => {
        record('connections.remove', { id });
        profiles = profiles.filter((p) => p.id !== id);
        if (activeId === id) activeId = 'sandbox';
        return state();
      },
      select: async ({ id }) => {
        record('connections.select', { id });
        if (!profiles.some((p) => p.id === id)) throw notFound(`connection ${id}`);
        activeId = id;
        return state();
      },
      test: async ({ id }) => {
        record('connections.test', { id });
        return { ok: true as const, models: entries.map((e) => e.id), latencyMs: 42 };
      },
      setSandboxPort: async ({ port }) => {
        record('connections.setSandboxPort', { port });
        sandbox = { ...sandbox, configuredPort: port };
        return state();
      },
      onChanged: (cb) => {
        listeners.add(cb);
        return () => listeners.delete(cb);
      },
    },
    models: {
      catalogue: async (input) => {
        record('models.catalogue', input);
        if (controls.catalogueError) throw new WorkbenchFailure(controls.catalogueError);
        return { connectionId: activeId, isSandbox: activeId === 'sandbox', fetchedAt: 1_760_000_000_000, entries: [...entries], ...(opts.catalogueNotes ? { notes: opts.catalogueNotes } : {}) };
      },
    },
    chat: {
      send,
      // A followed run is a stream like any other; its input names the run.
      follow: (input, onChunk) => textStream('chat.follow', { request: { model: '', messages: [] }, runId: input.runId } as unknown as ChatSendInput, onChunk),
    },
    jobs: {
      list: async (input) => {
        record('jobs.list', input);
        return controls.jobs.filter((j) => (!input?.active || ['queued', 'running', 'retrying'].includes(j.state)) && (!input?.kind || j.kind === input.kind));
      },
      get: async ({ id }) => {
        const job = controls.jobs.find((j) => j.id === id);
        if (!job) throw notFound(`job ${id}`);
        return { ...job, result: null, events: [] };
      },
      cancel: async ({ id }) => {
        record('jobs.cancel', { id });
        const i = controls.jobs.findIndex((j) => j.id === id);
        if (i < 0) throw notFound(`job ${id}`);
        controls.jobs[i] = { ...controls.jobs[i], state: 'cancelled' };
        return controls.jobs[i];
      },
      retryNow: async ({ id }) => {
        record('jobs.retryNow', { id });
        const job = controls.jobs.find((j) => j.id === id);
        if (!job) throw notFound(`job ${id}`);
        return job;
      },
      onChanged: (cb) => {
        jobListeners.add(cb);
        return () => jobListeners.delete(cb);
      },
    },
    responses: {
      create: (input, onChunk) => textStream('responses.create', input as unknown as ChatSendInput, onChunk),
      retrieve: async (input) => {
        record('responses.retrieve', input);
        const found = history.find((r) => r.endpoint === 'responses' && (r.output as { id?: string } | null)?.id === input.id);
        // As main: a 404 from the service is a recorded run with the service's error, not a throw.
        if (!found) return makeRecord({ endpoint: 'responses.retrieve', status: 'error', output: null, error: { code: 'api_error', status: 404, message: `response ${input.id} not found` } });
        return { ...found, endpoint: 'responses.retrieve' };
      },
      remove: async (input) => {
        record('responses.remove', input);
        const node = controls.responseNodes.find((n) => n.id === input.id);
        if (!node) throw notFound(`response ${input.id}`);
        node.serverState = 'deleted';
        return makeRecord({ endpoint: 'responses.delete', output: { id: input.id, object: 'response', deleted: true } });
      },
      compact: async (input) => {
        record('responses.compact', input);
        return makeRecord({ endpoint: 'responses.compact', output: { id: 'cmp_fake', object: 'response.compaction', output: [{ type: 'compaction', id: 'cmp_fake', encrypted_content: 'x' }], usage: { dropped_message_count: 2 } } });
      },
      tree: async (input) => {
        record('responses.tree', input);
        const node = controls.responseNodes.find((n) => n.id === input.id);
        if (!node) throw notFound(`response ${input.id}`);
        let root = node;
        while (root.parentId) root = controls.responseNodes.find((n) => n.id === root.parentId) ?? root;
        const inTree = (n: ResponseNode): boolean => n.id === root.id || (!!n.parentId && inTree(controls.responseNodes.find((p) => p.id === n.parentId) ?? { ...n, parentId: null, id: '' }));
        return { rootId: root.id, nodes: controls.responseNodes.filter(inTree) };
      },
      chains: async (input) => {
        record('responses.chains', input);
        return controls.responseNodes.filter((n) => !n.parentId);
      },
    },
    media: {
      url: async ({ hash }) => {
        record('media.url', { hash });
        return { url: `/media/${hash}?t=fake`, expiresAt: null, mime: 'application/octet-stream', size: 0 };
      },
      async channel() {
        record('media.channel', undefined);
        return { transport: 'websocket' as const, url: 'ws://127.0.0.1:1/media', token: 'fake' };
      },
    },
    tools: {
      load: async ({ playground }) => (record('tools.load', { playground }), toolState(playground)),
      save: async (input) => {
        record('tools.save', input);
        return saveToolSet(input.playground, input.baseRevision, input.tools);
      },
      onChanged: (cb) => {
        toolListeners.add(cb);
        return () => toolListeners.delete(cb);
      },
    },
    drafts: {
      list: async () => (record('drafts.list', {}), [...drafts.values()].filter((d) => d.state !== null).map((d) => structuredClone(d))),
      get: async ({ key }) => (record('drafts.get', { key }), structuredClone(drafts.get(key) ?? { key, revision: 0, state: null, updatedAt: 0 })),
      put: async (input) => {
        record('drafts.put', input);
        const draft = writeDraft(input.key, structuredClone(input.state), input.writer);
        return { revision: draft.revision, updatedAt: draft.updatedAt };
      },
      clear: async (input) => {
        record('drafts.clear', input);
        const previous = drafts.get(input.key)?.state ?? null;
        return { revision: writeDraft(input.key, null, input.writer).revision, previous };
      },
      onChanged: (cb) => {
        draftListeners.add(cb);
        return () => draftListeners.delete(cb);
      },
    },
    userFiles: {
      pick: async (input) => {
        record('userFiles.pick', input);
        throw new WorkbenchFailure({ code: 'unsupported', message: 'Browser mode has no file dialog of its own; choose the file in the page instead.' });
      },
      release: async (input) => (record('userFiles.release', input), { released: true }),
      upload: (input) => {
        record('userFiles.upload', input);
        let size = 0;
        let finish: (ref: { ref: string; name: string; size: number; type: string }) => void = () => {};
        const result = new Promise<{ ref: string; name: string; size: number; type: string }>((resolve) => (finish = resolve));
        return {
          id: 'fake-upload-0001',
          result,
          send: async ({ data }) => void (size += data.byteLength),
          close: async () => finish({ ref: 'ref_AAAAAAAAAAAAAAAAAAAAAA', name: input.name, size, type: input.type }),
          cancel: async () => {},
        };
      },
    },
    messages: { send: (input, onChunk) => textStream('messages.send', input as unknown as ChatSendInput, onChunk) },
    completions: {
      send: (input, onChunk) => textStream('completions.send', input as unknown as ChatSendInput, onChunk),
      complete: (input, onChunk) => textStream('completions.complete', input as unknown as ChatSendInput, onChunk),
    },
    files: {
      upload: (input, onChunk) => fileUpload(input, onChunk),
      uploadCancelled: async (input) => {
        record('files.uploadCancelled', input);
        const n = controls.files.length + 1;
        const f = makeFileRecord({ key: `lf_cancelled${n}`, id: null, filename: input.name, bytes: input.size, status: 'cancelled', statusMessage: 'Cancelled while it was handed to the workbench; nothing was sent to the service and nothing was kept.', runId: `run-cancelled${n}` });
        controls.files.unshift(f);
        return { ...f };
      },
      list: async (input) => {
        record('files.list', input);
        const live = controls.files.filter((f) => f.status === 'complete');
        const start = input.paginationToken ? Number(input.paginationToken) : 0;
        const limit = input.limit ?? 20;
        const items = live.slice(start, start + limit);
        return { items, nextToken: items.length < limit ? null : String(start + limit) };
      },
      get: async (input) => (record('files.get', input), findFile(input.id)),
      update: async (input) => {
        record('files.update', input);
        const f = findFile(input.id);
        if (input.filename) f.filename = input.filename;
        if (input.expiresAfter !== undefined) f.expiresAt = input.expiresAfter === null ? null : Date.now() + input.expiresAfter * 1000;
        return { ...f };
      },
      remove: async (input) => {
        record('files.remove', input);
        const f = findFile(input.id);
        // As main does: the service's confirmation is the last word on it, dated lastSeenAt.
        Object.assign(f, { status: 'deleted', statusMessage: 'Deleted from the service.', lastSeenAt: Date.now() });
        return { ...f };
      },
      download: (input, onChunk) => fileDownload(input, onChunk),
      createPublicUrl: async (input) => {
        record('files.createPublicUrl', input);
        const f = findFile(input.id);
        f.publicUrl = `http://127.0.0.1:4010/public/t0k3n/${f.id}`;
        f.publicUrlExpiresAt = input.expiresAfter !== undefined ? Date.now() + input.expiresAfter * 1000 : null;
        return { ...f };
      },
      revokePublicUrl: async (input) => {
        record('files.revokePublicUrl', input);
        const f = findFile(input.id);
        f.publicUrl = null;
        return { ...f };
      },
      local: async (input) => (record('files.local', input), controls.files.filter((f) => !input?.connectionId || f.connectionId === input.connectionId)),
      ofRun: async (input) => (record('files.ofRun', input), controls.files.find((f) => f.runId === input.runId) ?? null),
      onChanged: (cb) => {
        fileListeners.add(cb);
        return () => fileListeners.delete(cb);
      },
    },
    transcription: {
      transcribe: (input, onChunk) => {
        record('transcription.transcribe', input);
        const runId = `run-stt${controls.transcription.results.size + 1}`;
        const src = input.source;
        const filename = src.kind === 'ref' ? `${src.ref}.wav` : src.kind === 'file' ? src.fileId : src.url;
        const answer = controls.transcription.answer;
        const result = (async (): Promise<TranscribeResult> => {
          await new Promise((r) => setTimeout(r, 1));
          onChunk({ type: 'started', runId, filename });
          if (!answer) throw new WorkbenchFailure({ code: 'internal', message: 'the test gave no transcription answer' });
          if ('code' in answer) throw new WorkbenchFailure(answer);
          const res: TranscribeResult = { ...answer, runId, filename };
          controls.transcription.results.set(runId, res);
          return res;
        })();
        return { streamId: `fake-stt-${runId}`, result, cancel: async () => void record('streams.cancel', { transcription: runId }) };
      },
      ofRun: async (input) => (record('transcription.ofRun', input), controls.transcription.results.get(input.runId) ?? null),
    },
    images: {
      generate: (input, onChunk) => imageStream('images.generate', input, onChunk),
      edit: (input, onChunk) => imageStream('images.edit', input, onChunk),
      ofRun: async (input) => (record('images.ofRun', input), controls.imageResults.get(input.runId) ?? null),
    },
    gallery: {
      list: async (input) => {
        record('gallery.list', input);
        const words = (input?.query ?? '').toLowerCase().split(/\s+/).filter(Boolean);
        const matches = controls.gallery.filter(
          (g) =>
            (!input?.kind || g.kind === input.kind) &&
            words.every((w) => [g.prompt, g.revisedPrompt ?? '', g.model ?? '', g.name].some((f) => f.toLowerCase().includes(w))),
        );
        const start = input?.after ? matches.findIndex((g) => g.id === input.after) + 1 : 0;
        const limit = input?.limit ?? 200;
        const items = matches.slice(start, start + limit);
        return { items, total: matches.length, next: start + limit < matches.length ? (items.at(-1)?.id ?? null) : null };
      },
      get: async (input) => (record('gallery.get', input), findItem(input.id)),
      remove: async (input) => {
        record('gallery.remove', input);
        const found = controls.gallery.some((g) => g.id === input.id);
        if (found) controls.emitGalleryChanged({ item: null, id: input.id, removed: true });
        return { removed: found };
      },
      setThumb: async (input) => {
        record('gallery.setThumb', { id: input.id, mime: input.mime, size: (input.bytes as { byteLength?: number }).byteLength ?? 0 });
        const item = findItem(input.id);
        const next = { ...item, thumbUrl: { url: `/media/thumb-${item.hash}?t=fake`, expiresAt: null, mime: input.mime, size: 1 } };
        controls.emitGalleryChanged({ item: next, id: next.id, removed: false });
        return next;
      },
      save: (input, onChunk) => {
        record('gallery.save', input);
        const item = controls.gallery.find((g) => g.id === input.id);
        if (!item) return { streamId: 'fake-save-missing', result: Promise.reject(notFound(`gallery item ${input.id}`)), cancel: async () => undefined };
        onChunk({ type: 'progress', received: item.bytes, total: item.bytes, bytesPerSecond: 1000 });
        return { streamId: `fake-save-${item.id}`, result: Promise.resolve({ filename: item.name, bytes: item.bytes, url: `/downloads/fake-${item.id}` }), cancel: async () => undefined };
      },
      ofRun: async (input) => (record('gallery.ofRun', input), controls.gallery.filter((g) => g.runId === input.runId)),
      byHash: async (input) => (record('gallery.byHash', input), controls.gallery.find((g) => g.hash === input.hash) ?? null),
      // Main copies the staged file into the gallery as an input item; here the ref's suffix names it.
      keepInput: async (input) => {
        record('gallery.keepInput', input);
        const item = makeGalleryItem({ id: `gal_kept${input.ref.slice(-8)}`, origin: 'input', name: `kept-${input.ref.slice(-4)}.png` });
        controls.gallery.push(item);
        return item;
      },
      onChanged: (cb) => {
        galleryListeners.add(cb);
        return () => galleryListeners.delete(cb);
      },
    },
    videos: {
      create: async (input: VideoCreateInput) => {
        record('videos.create', input);
        const n = controls.videoJobs.length + 1;
        const job = makeVideoJob({
          id: `job_fake${n.toString().padStart(4, '0')}`,
          cardId: `card_fake${n.toString().padStart(4, '0')}`,
          mode: input.mode,
          state: 'creating',
          model: input.model,
          prompt: input.prompt ?? '',
          duration: input.duration ?? null,
          aspectRatio: input.aspectRatio ?? null,
          resolution: input.resolution ?? null,
          requestId: null,
          runId: `run-vid${n}`,
          createdAt: Date.now(),
          updatedAt: Date.now(),
        });
        controls.emitVideoChanged(job);
        return job;
      },
      list: async (input) => (record('videos.list', input), controls.videoJobs.slice(0, input?.limit ?? 100)),
      get: async (input) => (record('videos.get', input), findJob(input.id)),
      cancel: async (input) => {
        record('videos.cancel', input);
        const job = { ...findJob(input.id), state: 'cancelled' as const };
        controls.emitVideoChanged(job);
        return job;
      },
      retry: async (input) => {
        record('videos.retry', input);
        const old = findJob(input.id);
        const job = { ...old, id: `${old.id}r`, state: 'creating' as const, error: null, attempt: 1 };
        controls.emitVideoChanged(job);
        return job;
      },
      dismiss: async (input) => {
        record('videos.dismiss', input);
        const i = controls.videoJobs.findIndex((j) => j.id === input.id);
        if (i >= 0) controls.videoJobs.splice(i, 1);
        return { dismissed: i >= 0 };
      },
      ofItem: async (input) => (record('videos.ofItem', input), controls.videoJobs.find((j) => j.video?.id === input.id) ?? null),
      onChanged: (cb) => {
        videoListeners.add(cb);
        return () => videoListeners.delete(cb);
      },
    },
    history: {
      search: async (input: HistorySearchInput) => {
        record('history.search', input);
        const q = input.query?.toLowerCase();
        const matches = history.filter(
          (r) =>
            (!q || r.promptPreview.toLowerCase().includes(q) || r.outputPreview.toLowerCase().includes(q)) &&
            (!input.model || r.model === input.model) &&
            (!input.status || r.status === input.status),
        );
        const start = input.cursor ? Number(input.cursor) : 0;
        const limit = input.limit ?? 50;
        const page = matches.slice(start, start + limit);
        const next = start + limit < matches.length ? String(start + limit) : null;
        return { items: page.map(({ request: _r, response: _s, eventCount: _e, output: _o, error: _x, timings: _t, usage: _u, retries: _n, ...summary }) => summary), nextCursor: next };
      },
      get: async ({ id }) => {
        record('history.get', { id });
        const found = history.find((r) => r.id === id);
        if (!found) throw notFound(`run ${id}`);
        return found;
      },
      request: async ({ id }) => {
        record('history.request', { id });
        const found = history.find((r) => r.id === id);
        if (!found) throw notFound(`run ${id}`);
        return opts.requestsAsSent?.[id] ?? found.request;
      },
      events: async ({ id, offset = 0, limit = 1_000 }) => {
        record('history.events', { id, offset, limit });
        const all = fakeEventsOf(id);
        if (!all) throw notFound(`run ${id}`);
        return { events: all.slice(offset, offset + limit), offset, total: all.length };
      },
      // Runs not in `opts.sessions` answer as a text run would: not a session.
      session: async ({ id }) => {
        record('history.session', { id });
        const found = opts.sessions?.[id];
        if (!found) throw notFound(`session ${id}`);
        return found.session;
      },
      timeline: async ({ id, offset = 0, limit = 500 }) => {
        record('history.timeline', { id, offset, limit });
        const found = opts.sessions?.[id];
        if (!found) throw notFound(`session ${id}`);
        return { items: found.timeline.slice(offset, offset + limit), offset, total: found.timeline.length };
      },
      facets: async () => ({ models: [...new Set(history.map((r) => r.model))].sort() }),
      remove: async ({ id }) => {
        record('history.remove', { id });
        const i = history.findIndex((r) => r.id === id);
        if (i >= 0) history.splice(i, 1);
        return { removed: i >= 0 };
      },
      exportJsonl: async ({ ids }) => {
        record('history.exportJsonl', { ids });
        return { filename: 'workbench-runs.jsonl', runs: ids.length, bytes: 100 * ids.length, url: '/downloads/fake-export' };
      },
    },
  };
  return Object.assign(api, { controls }) as FakeWorkbench;
}

const SCRIPT =
  'Here is a **short answer** with a list:\n\n1. Streams arrive as deltas.\n2. Markdown renders as it grows.\n\n```ts\nconst total = 40 + 2;\n```\n\nDone.';

/** Auto mode: a sandbox-like stream (started, response, reasoning, words, usage, finish). */
async function autoStream(stream: FakeStream): Promise<void> {
  const tick = (): Promise<void> => new Promise((r) => setTimeout(r, 15));
  const req = stream.input.request as unknown as ChatRequest;
  const n = req.n ?? 1;
  const path = FAMILY_ENDPOINTS[stream.method]?.path ?? '/v1/chat/completions';
  stream.emit({ type: 'started', runId: 'run-live', request: { method: 'POST', url: `http://127.0.0.1:4010${path}`, headers: { 'content-type': 'application/json' }, body: req }, isSandbox: true });
  await tick();
  stream.emit({ type: 'response', status: 200, ttfbMs: 95, requestId: 'req-live' });
  for (let c = 0; c < n; c++) stream.emit({ type: 'delta', choice: c, reasoning: 'The user wants a short demo answer; keep it structured.' });
  for (const word of SCRIPT.split(/(?<= )/)) {
    if (stream.cancelled) return;
    for (let c = 0; c < n; c++) stream.emit({ type: 'delta', choice: c, content: word });
    await tick();
  }
  for (let c = 0; c < n; c++) stream.emit({ type: 'delta', choice: c, finishReason: 'stop' });
  stream.emit({ type: 'usage', usage: makeUsage({ completion_tokens_details: { reasoning_tokens: 12, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 } }) });
  stream.finish();
}
