/**
 * The composition root: builds every service once, for both shells. Electron and browser mode
 * differ only in their transport and their KeyStore; everything else is made here, in order, and
 * disposed in reverse.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { WorkbenchContract } from '../shared/contract';
import type { EmitEvent, HandlersFor } from './host/handlers';
import { startSandbox } from './sandbox';
import { ChatService } from './services/chat-service';
import { CompletionsService } from './services/completions-service';
import { MessagesService } from './services/messages-service';
import { ResponsesService } from './services/responses-service';
import { ConnectionsService } from './services/connections-service';
import { deferredChatJob } from './services/deferred-chat-job';
import { HistoryService } from './services/history-service';
import { MediaService, type MediaUrlOf } from './services/media-service';
import { MediaTokens } from './host/media-token';
import { loadToolSet, saveToolSet } from './services/tool-sets';
import { ModelsService } from './services/models-service';
import { closeDatabase, openDatabase } from './store/db';
import { sweepOrphanBlobs } from './store/blob-rows';
import { BlobStore } from './store/blobs';
import type { KeyStore } from './store/key-store';
import { markInterruptedRuns } from './store/runs';
import { JobQueue } from './jobs/job-queue';
import { WorkbenchFailure } from '../shared/contract/errors';

export interface AppOptions {
  dataDir: string;
  shell: 'electron' | 'browser';
  keyStore: KeyStore;
  emit: EmitEvent;
  log: (line: string) => void;
  version: string;
  /** Pacing of the embedded sandbox's streams (default: WORKBENCH_SANDBOX_TOKEN_DELAY_MS, else like a real model). */
  sandboxTokenDelayMs?: number;
  /** The embedded sandbox's clock (tests move it to see stored responses expire). */
  sandboxNow?: () => number;
  /** How the page addresses a blob; default: browser mode's signed `/media/<hash>?t=` link. */
  mediaUrl?: MediaUrlOf;
  /** First poll interval of deferred chat jobs (default 1 s; tests shorten it). */
  deferredPollMs?: number;
}

export interface App {
  handlers: HandlersFor<WorkbenchContract>;
  /** Blobs for the shell's media server; `tokens` signs and checks browser mode's /media/ links. */
  media: { lookup: MediaService; tokens: MediaTokens; blobs: BlobStore };
  dispose(): Promise<void>;
}

export async function createApp(options: AppOptions): Promise<App> {
  const disposers: Array<() => void | Promise<void>> = [];
  try {
    mkdirSync(options.dataDir, { recursive: true, mode: 0o700 });
    const db = openDatabase(join(options.dataDir, 'workbench.db'), { log: options.log });
    disposers.push(() => closeDatabase(db));
    const interrupted = markInterruptedRuns(db, Date.now());
    if (interrupted > 0) options.log(`${interrupted} run(s) were interrupted by the last shutdown; marked incomplete`);
    const blobs = new BlobStore(join(options.dataDir, 'blobs'));
    // Before anything of this process writes a blob: temporaries here are from a crash.
    const swept = await sweepOrphanBlobs(db, blobs);
    if (swept.temps + swept.files > 0) options.log(`blob store: removed ${swept.temps} unfinished write(s) and ${swept.files} unreferenced blob(s)`);
    const mediaTokens = new MediaTokens();
    const media = new MediaService(db, blobs, options.mediaUrl ?? ((hash) => {
      const { token, expiresAt } = mediaTokens.issue(hash);
      return { url: `/media/${hash}?t=${token}`, expiresAt };
    }));

    const sandboxKey = `sk-sandbox-${randomBytes(16).toString('hex')}`;
    const envDelay = Number(process.env.WORKBENCH_SANDBOX_TOKEN_DELAY_MS);
    const tokenDelayMs = options.sandboxTokenDelayMs ?? (Number.isFinite(envDelay) && envDelay >= 0 ? envDelay : undefined);
    // How long the embedded sandbox keeps a deferred completion pending (e2e tests lengthen it).
    const envDeferred = Number(process.env.WORKBENCH_SANDBOX_DEFERRED_DELAY_MS);
    const deferredDelayMs = Number.isFinite(envDeferred) && envDeferred > 0 ? envDeferred : undefined;
    const sandbox = await startSandbox({ keys: [sandboxKey], tokenDelayMs, deferredDelayMs, now: options.sandboxNow, log: options.log });
    disposers.push(() => sandbox.close());

    const connections = new ConnectionsService({
      db,
      keyStore: options.keyStore,
      sandbox: { url: sandbox.url, key: sandboxKey },
      emit: options.emit,
    });
    disposers.push(() => connections.dispose());
    const models = new ModelsService(connections);
    // Durable jobs run in main whatever happens to windows; disposed before the clients they use.
    const jobs = new JobQueue({ db, log: options.log, onChange: (job) => options.emit('jobs.changed', job) });
    disposers.push(() => jobs.dispose());
    jobs.define(deferredChatJob({ connections, models, pollMs: options.deferredPollMs }));
    const chat = new ChatService({ db, blobs, connections, models, jobs });
    const responses = new ResponsesService({ db, blobs, connections, models });
    const messages = new MessagesService({ db, blobs, connections, models });
    const completions = new CompletionsService({ db, blobs, connections, models });
    const history = new HistoryService(db, blobs);
    const resumed = jobs.resumeAll();
    if (resumed > 0) options.log(`${resumed} unfinished job(s) resumed`);

    const handlers: HandlersFor<WorkbenchContract> = {
      app: {
        info: () => ({ version: options.version, shell: options.shell, platform: process.platform, dataDir: options.dataDir }),
      },
      connections: {
        list: () => connections.state(),
        save: (input) => connections.save(input),
        remove: ({ id }) => connections.remove(id),
        select: ({ id }) => connections.select(id),
        test: ({ id }) => connections.test(id),
      },
      models: {
        catalogue: (input) => models.catalogue(input?.connectionId, input?.refresh ?? false),
      },
      chat: {
        send: (input, ctx) => chat.send(input, ctx),
        follow: (input, ctx) => chat.follow(input, ctx),
      },
      responses: {
        create: (input, ctx) => responses.create(input, ctx),
        retrieve: (input) => responses.retrieve(input),
        remove: (input) => responses.remove(input),
        compact: (input) => responses.compact(input),
        tree: (input) => responses.tree(input),
        chains: (input) => responses.chains(input),
      },
      messages: {
        send: (input, ctx) => messages.send(input, ctx),
      },
      completions: {
        send: (input, ctx) => completions.send(input, ctx),
        complete: (input, ctx) => completions.complete(input, ctx),
      },
      history: {
        search: (input) => history.search(input),
        get: ({ id }) => history.get(id),
        events: ({ id, offset, limit }) => history.events(id, offset, limit),
        facets: () => history.facets(),
        remove: ({ id }) => history.remove(id),
      },
      media: {
        url: ({ hash }) => media.url(hash),
      },
      tools: {
        load: ({ playground }) => loadToolSet(db, playground),
        save: ({ playground, tools }) => saveToolSet(db, playground, tools),
      },
      jobs: {
        list: (input) => jobs.list(input ?? {}),
        get: ({ id }) => jobs.get(id) ?? notFoundJob(id),
        cancel: ({ id }) => jobs.cancel(id) ?? notFoundJob(id),
      },
    };

    return { handlers, media: { lookup: media, tokens: mediaTokens, blobs }, dispose: () => runDisposers(disposers) };
  } catch (error) {
    await runDisposers(disposers);
    throw error;
  }
}

function notFoundJob(id: string): never {
  throw new WorkbenchFailure({ code: 'not_found', message: `There is no job ${id}.` });
}

async function runDisposers(disposers: Array<() => void | Promise<void>>): Promise<void> {
  for (const dispose of disposers.splice(0).reverse()) {
    await dispose();
  }
}
