/**
 * The composition root: builds every service once, for both shells. Electron and browser mode
 * differ only in their transport and their KeyStore; everything else is made here, in order, and
 * disposed in reverse.
 */
import { join } from 'node:path';
import type { WorkbenchContract } from '../shared/contract';
import * as filesApi from './api/files';
import type { HandlersFor, TypedEmit } from './host/handlers';
import { loadOrCreateSandboxKey, sandboxKeyFile, startSandbox } from './sandbox';
import { chooseSandboxPort } from './sandbox/port-choice';
import { getSetting } from './store/settings';
import { ConnectionsService, SANDBOX_PORT_SETTING } from './services/connections-service';
import { DownloadTickets } from './services/download-tickets';
import { DraftsService } from './services/drafts-service';
import { FilesService } from './families/files/files-service';
import { GalleryService } from './services/gallery-service';
import { HistoryService } from './services/history-service';
import { openRecordings, type Recordings } from './services/recording/recordings';
import { MediaService, type MediaUrlOf } from './services/media-service';
import { MediaTokens } from './host/media-token';
import { ToolSetsService } from './services/tool-sets';
import { ModelsService } from './services/models-service';
import { openLogFile, pickUserFiles, type OpenPath, type PickFiles } from './services/shell-actions';
import { UserFiles } from './services/user-files';
import { closeDatabase, openDatabase } from './store/db';
import { securePrivateDir } from './store/private-dir';
import { sweepOrphanBlobs } from './store/blob-rows';
import { BlobStore } from './store/blobs';
import type { KeyStore } from './store/key-store';
import { markInterruptedUploads } from './store/files';
import { markInterruptedRuns } from './store/runs';
import { JobQueue } from './jobs/job-queue';
import { createLiveHandlers } from './live/handlers';
import { liveKinds } from './live/kinds';
import { recoveredRealtimeOutput } from './live/realtime-recovered';
import { priceRecoveredCalls } from './live/realtime-recovered-cost';
import { modelPrices } from './live/realtime-prices';
import { sipCallDeps } from './live/sip-call';
import { realtimeAnswerer } from './live/sip-answer';
import { REALTIME_CALL_KIND } from '../shared/realtime-call/input';
import { createLiveRegistry, type LiveRegistry } from './live/registry';
import { buildFamilies, type FamilyDeps } from './families';
import { WorkbenchFailure } from '../shared/contract/errors';
import type { MediaChannelInfo } from '../shared/contract/media';
import type { NativeAudioDevices } from '../shared/contract/audio';
import type { MediaPlane } from './media/media-plane';
import { stageUpload } from './services/upload-session';
import { UploadLanes } from './services/upload-lane';
import { FILE_LIMITS } from '../shared/wire/files';

export interface AppOptions {
  dataDir: string;
  shell: 'electron' | 'browser';
  keyStore: KeyStore;
  emit: TypedEmit;
  log: (line: string) => void;
  /** The log's `addSecret`: every saved API key, at start-up and on save, is masked in the log. */
  addSecret?: (secret: string) => void;
  version: string;
  /** Pacing of the embedded sandbox's streams (default: WORKBENCH_SANDBOX_TOKEN_DELAY_MS, else like a real model). */
  sandboxTokenDelayMs?: number;
  /** The embedded sandbox's clock (tests move it to see stored responses expire). */
  sandboxNow?: () => number;
  /** `--sandbox-port N`: the port the embedded sandbox tries first (else WORKBENCH_SANDBOX_PORT, the setting, the last, 4010). */
  sandboxPort?: number;
  /** How the page addresses a blob; default: browser mode's signed `/media/<hash>?t=` link. */
  mediaUrl?: MediaUrlOf;
  /** First poll interval of deferred chat jobs (default 1 s; tests shorten it). */
  deferredPollMs?: number;
  /** First and longest poll interval of video jobs (default 1 s rising to 5 s; tests shorten them). */
  videoPollMs?: { first: number; max: number };
  /**
   * Tests only: multiplies the waits of durable jobs between attempts during an outage (default:
   * WORKBENCH_JOB_BACKOFF_SCALE, else 1), so a test waits out ten minutes of backoff in seconds.
   */
  jobBackoffScale?: number;
  /** A desktop notification when a video job finishes or fails (Electron); browser mode has none: the page notifies. */
  notify?: (title: string, body: string) => void;
  /** Electron: the save dialog for downloads (null when closed). Browser mode has none: the page's download saves. */
  chooseSaveTarget?: (suggestedName: string) => Promise<string | null>;
  /** The log file, for app.info and app.openLog (default `<dataDir>/logs/workbench.log`). */
  logPath?: string;
  /** Electron's native open dialog; browser mode has none (the page uploads instead). */
  pickFiles?: PickFiles;
  /** Electron's shell.openPath; browser mode has none (app.openLog then returns the path). */
  openPath?: OpenPath;
  /** The media process (main/media/media-plane.ts), started by the shell; without it `media.channel` says none runs. */
  mediaPlane?: Pick<MediaPlane, 'channel'> & Partial<Pick<MediaPlane, 'startSession' | 'stopSession' | 'controlSession' | 'onEvent' | 'devices'>>;
}

export interface App {
  handlers: HandlersFor<WorkbenchContract>;
  /** Browser mode serves these one-time download links (GET /downloads/<token>). */
  downloads: DownloadTickets;
  /** Browser mode takes upload chunks posted to these (POST /upload-lane/<ticket>/<index>). */
  uploadLanes: UploadLanes;
  /** References to files from the user: the shells register dropped paths and staged uploads here. */
  userFiles: UserFiles;
  /** Blobs for the shell's media server; `tokens` signs and checks browser mode's /media/ links. */
  media: { lookup: MediaService; tokens: MediaTokens; blobs: BlobStore };
  /** Live sessions: main starts its own here (an incoming call), with no window. */
  live: LiveRegistry;
  /** Live sessions record through this (tracks, marks, events); start-up finalised what a crash left. */
  recordings: Recordings;
  dispose(): Promise<void>;
}

export async function createApp(options: AppOptions): Promise<App> {
  const disposers: Array<() => void | Promise<void>> = [];
  try {
    // 0700 with 0600 files even when the folder already existed with wider modes.
    securePrivateDir(options.dataDir);
    const db = openDatabase(join(options.dataDir, 'workbench.db'), { log: options.log });
    disposers.push(() => closeDatabase(db));
    const interrupted = markInterruptedRuns(db, Date.now());
    if (interrupted > 0) options.log(`${interrupted} run(s) were interrupted by the last shutdown; marked incomplete`);
    const blobs = new BlobStore(join(options.dataDir, 'blobs'));
    // Before anything of this process writes a blob: temporaries here are from a crash.
    const temps = await blobs.sweepTemps();
    if (temps > 0) options.log(`blob store: removed ${temps} unfinished write(s)`);
    // Sessions a crash left recording become blobs before any session of this process opens a track.
    // A call the last process did not end gets its transcript back from its recorded events.
    const recordings = await openRecordings({ db, blobs, dataDir: options.dataDir, log: options.log, outputs: { realtime: recoveredRealtimeOutput } });
    disposers.push(() => recordings.settled());
    // Unreferenced blobs are looked for in the background: a walk of the whole store must not
    // delay start-up. Disposal waits for it before the database closes.
    const orphanSweep = sweepOrphanBlobs(db, blobs, { temps: false })
      .then((swept) => swept.files > 0 && options.log(`blob store: removed ${swept.files} unreferenced blob(s)`))
      .catch((error: unknown) => options.log(`blob store: the sweep of unreferenced blobs failed: ${error instanceof Error ? error.message : String(error)}`));
    disposers.push(() => orphanSweep.then(() => undefined));
    const mediaTokens = new MediaTokens();
    const mediaUrlOf: MediaUrlOf = options.mediaUrl ?? ((hash) => {
      const { token, expiresAt } = mediaTokens.issue(hash);
      return { url: `/media/${hash}?t=${token}`, expiresAt };
    });
    const media = new MediaService(db, blobs, mediaUrlOf);

    // The built-in sandbox keeps its key and state in the data folder, so a restart loses nothing
    // (a resumed deferred chat, uploaded files, stored responses) and the key stays the same.
    const sandboxDir = join(options.dataDir, 'sandbox');
    const sandboxKey = loadOrCreateSandboxKey(sandboxDir, options.log);
    const envDelay = Number(process.env.WORKBENCH_SANDBOX_TOKEN_DELAY_MS);
    const tokenDelayMs = options.sandboxTokenDelayMs ?? (Number.isFinite(envDelay) && envDelay >= 0 ? envDelay : undefined);
    // How long the embedded sandbox keeps a deferred completion pending (e2e tests lengthen it).
    const envDeferred = Number(process.env.WORKBENCH_SANDBOX_DEFERRED_DELAY_MS);
    const deferredDelayMs = Number.isFinite(envDeferred) && envDeferred > 0 ? envDeferred : undefined;
    // The embedded sandbox's upload limit (default 50 MB, as the service's); raising it (the
    // browser-mode drop benchmark sends 1 GiB) raises the app's own check before an upload too.
    const envMaxFile = Number(process.env.WORKBENCH_SANDBOX_MAX_FILE_BYTES);
    const maxUploadBytes = Number.isSafeInteger(envMaxFile) && envMaxFile > 0 ? envMaxFile : FILE_LIMITS.maxFileBytes;
    // A stable address, so exported code and scripts find the sandbox launch after launch.
    const portChoice = chooseSandboxPort({
      cli: options.sandboxPort,
      env: process.env.WORKBENCH_SANDBOX_PORT,
      setting: getSetting<unknown>(db, SANDBOX_PORT_SETTING),
      stateDir: sandboxDir,
      log: options.log,
    });
    const sandbox = await startSandbox({
      keys: [sandboxKey],
      preferredPort: portChoice.port,
      tokenDelayMs,
      deferredDelayMs,
      now: options.sandboxNow,
      stateDir: sandboxDir,
      log: options.log,
      maxFileBytes: maxUploadBytes,
    });
    disposers.push(() => sandbox.close());

    const connections = new ConnectionsService({
      db,
      keyStore: options.keyStore,
      sandbox: { url: sandbox.url, key: sandboxKey, port: sandbox.port, preferredPort: portChoice.port, preferredSource: portChoice.source },
      emit: options.emit,
      onSecret: options.addSecret,
    });
    disposers.push(() => connections.dispose());
    const models = new ModelsService(connections);
    // Durable jobs run in main whatever happens to windows; disposed before the clients they use.
    const jobs = new JobQueue({ db, log: options.log, backoffScale: options.jobBackoffScale ?? envJobBackoffScale() });
    disposers.push(() => jobs.dispose());
    jobs.subscribe((job) => options.emit('jobs.changed', job));
    const uploadLanes = new UploadLanes({ served: options.shell === 'browser' });
    const downloads = new DownloadTickets({ dir: join(options.dataDir, 'downloads-tmp'), log: options.log });
    disposers.push(() => downloads.dispose());
    const userFiles = new UserFiles({ stagingDir: join(options.dataDir, 'staging'), log: options.log });
    disposers.push(() => userFiles.dispose());
    const logPath = options.logPath ?? join(options.dataDir, 'logs', 'workbench.log');
    const failedUploads = markInterruptedUploads(db);
    if (failedUploads > 0) options.log(`${failedUploads} upload(s) were interrupted by the last shutdown; marked failed`);
    const files = new FilesService({
      db,
      connections,
      api: filesApi,
      userFiles,
      emitChanged: (record) => options.emit('files.changed', record),
      chooseSaveTarget: options.chooseSaveTarget,
      tickets: downloads,
      maxUploadBytes,
    });
    const gallery = new GalleryService({
      db,
      blobs,
      media,
      emitChanged: (change) => options.emit('gallery.changed', change),
      saveTarget: { chooseSaveTarget: options.chooseSaveTarget, tickets: downloads },
    });

    const history = new HistoryService(
      db,
      blobs,
      jobs,
      { chooseSaveTarget: options.chooseSaveTarget, tickets: downloads },
      () => connections.knownSecrets(),
      (hash) => media.url(hash),
    );
    const toolSets = new ToolSetsService({ db, emit: options.emit });
    // Made after the families (below); an incoming call that arrives before then is refused and retried by the service.
    const liveRef: { current: LiveRegistry | null } = { current: null };
    // Every family's service, handlers and job kinds (main/families/index.ts lists them).
    const families = await buildFamilies({
      db,
      blobs,
      connections,
      jobs,
      gallery,
      userFiles,
      downloads,
      models,
      files,
      emit: options.emit,
      log: options.log,
      dataDir: options.dataDir,
      deferredPollMs: options.deferredPollMs,
      videoPollMs: options.videoPollMs,
      notify: options.notify,
      media: mediaControl(options.mediaPlane),
      keyStore: options.keyStore,
      addDisposer: (dispose) => disposers.push(dispose),
      live: () => liveRef.current,
    });
    // Every kind is defined and every subscriber listens: unfinished jobs may run now.
    const resumed = jobs.resumeAll();
    if (resumed > 0) options.log(`${resumed} unfinished job(s) resumed`);

    const drafts = new DraftsService({ db, log: options.log, emitChanged: (change) => options.emit('drafts.changed', change) });

    // Made last so it is disposed first: quitting finalises every live session while the store is open.
    const plane = options.mediaPlane;
    // One lookup for live calls and recovered calls: concurrent askers share one catalogue request.
    const prices = modelPrices((connectionId) => models.catalogue({ connectionId }));
    // Calls a crash cut short get their cost once the catalogue can be asked (start-up could not).
    // Not awaited by disposal (a request may hang): it stops by itself once the database is closed.
    if (recordings.recovered.rebuilt.length > 0) {
      void recordings.settled().then(() => priceRecoveredCalls({ db, prices, log: options.log }, recordings.recovered.rebuilt)).catch((error: unknown) => options.log(`recording: pricing interrupted calls failed: ${error instanceof Error ? error.message : String(error)}`));
    }
    const liveDeps = plane?.startSession && plane.stopSession && plane.controlSession && plane.onEvent
      ? { media: { startSession: plane.startSession.bind(plane), stopSession: plane.stopSession.bind(plane), controlSession: plane.controlSession.bind(plane), onEvent: plane.onEvent.bind(plane) }, recordings, resolveFile: (ref: string) => userFiles.resolve(ref), connection: (id?: string) => {
          const c = connections.credentials(id);
          return { id: c.profile.id, name: c.profile.name, isSandbox: c.isSandbox, baseUrl: c.profile.baseUrl, apiKey: c.apiKey, scrubber: c.scrubber };
        }, prices }
      : null;
    // A SIP call's Answer starts the realtime call kind joined to it; while the app has none, Answer says the console is missing.
    const answerer = realtimeAnswerer({ registry: () => liveRef.current, available: () => kinds.some((k) => k.id === REALTIME_CALL_KIND) });
    const kinds = liveKinds(liveDeps, sipCallDeps({ connections, recordings, answerer }));
    const live = createLiveRegistry({ kinds, onChange: (summary) => options.emit('live.changed', summary), log: options.log });
    liveRef.current = live;
    disposers.push(() => live.shutdown());
    const offDevices = plane?.onEvent?.((e) => e.type === 'devices-changed' && options.emit('audio.devicesChanged', e.devices));
    if (offDevices) disposers.push(() => void offDevices());

    // The families' services are their handlers; the app's shared services are answered here.
    const handlers: HandlersFor<WorkbenchContract> = {
      ...families,
      live: createLiveHandlers(live, options.log),
      app: {
        info: () => ({ version: options.version, shell: options.shell, platform: process.platform, dataDir: options.dataDir, logPath, maxUploadBytes, sandboxKeyPath: sandboxKeyFile(sandboxDir) }),
        openLog: () => openLogFile(logPath, options.openPath, options.log),
      },
      connections: {
        list: () => connections.state(),
        save: (input) => connections.save(input),
        remove: ({ id }) => connections.remove(id),
        select: ({ id }) => connections.select(id),
        test: ({ id }) => connections.test(id),
        setSandboxPort: ({ port }) => connections.setSandboxPort(port),
      },
      history: {
        search: (input) => history.search(input),
        get: ({ id }) => history.get(id),
        request: ({ id }) => history.request(id),
        events: ({ id, offset, limit }) => history.events(id, offset, limit),
        session: ({ id }) => history.session(id),
        timeline: ({ id, offset, limit }) => history.timeline(id, offset, limit),
        facets: () => history.facets(),
        remove: ({ id }) => history.remove(id),
        exportJsonl: ({ ids }, ctx) => history.exportJsonl(ids, ctx.signal),
      },
      media: {
        url: ({ hash }) => media.url(hash),
        channel: () => mediaChannel(options.mediaPlane),
      },
      audio: { devices: () => nativeDevices(options.mediaPlane) },
      tools: {
        load: ({ playground }) => toolSets.load(playground),
        save: ({ playground, baseRevision, tools }) => toolSets.save(playground, baseRevision, tools),
      },
      jobs: {
        list: (input) => jobs.list(input ?? {}),
        get: ({ id }) => jobs.get(id) ?? notFoundJob(id),
        cancel: ({ id }) => jobs.cancel(id) ?? notFoundJob(id),
        retryNow: ({ id }) => jobs.retryNow(id) ?? notFoundJob(id),
      },
      userFiles: {
        pick: (input) => pickUserFiles(userFiles, options.pickFiles, input),
        release: ({ ref }) => ({ released: userFiles.release(ref) }),
        upload: (start, ctx) =>
          start.lane
            ? uploadLanes.stage(userFiles, start, { messages: ctx.messages, signal: ctx.signal, announce: (lane) => ctx.emit({ lane }) }, { log: options.log })
            : stageUpload(userFiles, start, ctx.messages, ctx.signal, { log: options.log }),
      },
      drafts: {
        list: () => drafts.list(),
        get: ({ key }) => drafts.get(key),
        put: ({ key, state, writer }) => drafts.put(key, state, writer),
        clear: ({ key, writer }) => drafts.clear(key, writer),
      },
      gallery: {
        list: (input) => gallery.list(input),
        get: ({ id }) => gallery.get(id),
        remove: ({ id }) => gallery.remove(id),
        setThumb: (input) => gallery.setThumb(input),
        save: ({ id }) => gallery.save(id),
        ofRun: ({ runId }) => gallery.ofRun(runId),
        byHash: ({ hash }) => gallery.byHash(hash),
        // The staged copy goes once the gallery has its bytes (or refused them): the item is what the draft keeps.
        keepInput: ({ ref }) => gallery.keepInput(userFiles.resolve(ref)).finally(() => userFiles.release(ref)),
      },
    };

    return { handlers, userFiles, downloads, uploadLanes, media: { lookup: media, tokens: mediaTokens, blobs }, live, recordings, dispose: () => runDisposers(disposers) };
  } catch (error) {
    await runDisposers(disposers);
    throw error;
  }
}

/** WORKBENCH_JOB_BACKOFF_SCALE (tests only): a positive factor on every job backoff; unset or invalid is 1. */
function envJobBackoffScale(): number | undefined {
  const scale = Number(process.env.WORKBENCH_JOB_BACKOFF_SCALE);
  return process.env.WORKBENCH_JOB_BACKOFF_SCALE && Number.isFinite(scale) && scale > 0 ? scale : undefined;
}

function notFoundJob(id: string): never {
  throw new WorkbenchFailure({ code: 'not_found', message: `There is no job ${id}.` });
}

async function nativeDevices(plane: AppOptions['mediaPlane']): Promise<NativeAudioDevices> {
  if (!plane?.devices) return { devices: [], defaultInputId: null, defaultOutputId: null, problem: 'No media process runs in this workbench, so native audio devices are unavailable.' };
  const reply = await plane.devices();
  if (!reply.ok) throw new WorkbenchFailure(reply.error);
  return reply.value;
}

/** The media plane's session control, when the shell has one (tests may give only `channel`). */
function mediaControl(plane: AppOptions['mediaPlane']): FamilyDeps['media'] {
  if (!plane?.startSession || !plane.stopSession || !plane.controlSession || !plane.onEvent) return undefined;
  return { startSession: plane.startSession.bind(plane), stopSession: plane.stopSession.bind(plane), controlSession: plane.controlSession.bind(plane), onEvent: plane.onEvent.bind(plane) };
}

async function mediaChannel(plane: AppOptions['mediaPlane']): Promise<MediaChannelInfo> {
  if (!plane) throw new WorkbenchFailure({ code: 'unsupported', message: 'No media process runs in this workbench, so live audio is unavailable.' });
  const reply = await plane.channel();
  if (!reply.ok) throw new WorkbenchFailure(reply.error);
  return reply.value;
}

async function runDisposers(disposers: Array<() => void | Promise<void>>): Promise<void> {
  for (const dispose of disposers.splice(0).reverse()) {
    await dispose();
  }
}
