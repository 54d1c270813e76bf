/**
 * What a family's main module is (see README.md): its shared id, the contract family its handlers
 * answer, and `create(deps)`, which builds its service and returns the handlers (the service
 * itself, its methods bound: see bind.ts) and the job kinds it runs.
 */
import type { WorkbenchContract } from '../../shared/contract';
import type { FamilyId } from '../../shared/families';
import type { TypedEmit } from '../../shared/contract/typed-emit';
import type { JobQueue } from '../jobs/job-queue';
import type { Db } from '../store/db';
import type { BlobStore } from '../store/blobs';
import type { ConnectionsService } from '../services/connections-service';
import type { DownloadTickets } from '../services/download-tickets';
import type { FilesService } from './files/files-service';
import type { GalleryService } from '../services/gallery-service';
import type { ModelsService } from '../services/models-service';
import type { UserFiles } from '../services/user-files';
import type { MediaPlane } from '../media/media-plane';
import type { KeyStore } from '../store/key-store';
import type { LiveRegistry } from '../live/registry';

/** What every family is built with: the app's shared services and the options that reach families. */
export interface FamilyDeps {
  db: Db;
  blobs: BlobStore;
  connections: ConnectionsService;
  jobs: JobQueue;
  gallery: GalleryService;
  userFiles: UserFiles;
  downloads: DownloadTickets;
  /** The model catalogue: every family reads it (its own family only exposes it). */
  models: ModelsService;
  /** The local record of files (main/families/files): Videos links the files its jobs make, so app.ts builds it first. */
  files: FilesService;
  emit: TypedEmit;
  log: (line: string) => void;
  dataDir: string;
  /** First poll interval of deferred chat jobs (tests shorten it). */
  deferredPollMs?: number;
  /** First and longest poll interval of video jobs (tests shorten them). */
  videoPollMs?: { first: number; max: number };
  /** The media process, where audio devices are (absent in tests without one): Speech's native output. */
  media?: Pick<MediaPlane, 'startSession' | 'stopSession' | 'controlSession' | 'onEvent'>;
  /** A desktop notification (Electron); browser mode has none. */
  notify?: (title: string, body: string) => void;
  /** Where API keys are kept: SIP keeps its webhook signing secrets there too. */
  keyStore?: KeyStore;
  /** Something a family started that must end with the app (a listening server): run in reverse order on dispose. */
  addDisposer?: (dispose: () => void | Promise<void>) => void;
  /** The live registry (made after the families: null until then), where main starts its own sessions (an incoming call, with no window open). */
  live?: () => LiveRegistry | null;
}

/** What a family's `create` returns. */
export interface BuiltFamily<H extends object = object> {
  /** Its contract family's handlers (the service, bound). */
  handlers: H;
  /** Defines the job kinds it runs on the queue (called before unfinished jobs resume). */
  defineJobs?(queue: JobQueue): void;
}

export interface MainFamily {
  /** The shared family id (shared/families): the registration test pairs the layers by it. */
  readonly id: FamilyId;
  /** The contract family its handlers answer (`legacy` answers `completions`). */
  readonly contract: keyof WorkbenchContract;
  create(deps: FamilyDeps): BuiltFamily | Promise<BuiltFamily>;
}
