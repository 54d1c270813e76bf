/**
 * What every route module shares: the clock, pacing settings, and the sandbox's in-memory state.
 * One per running sandbox, so two sandboxes in one process never see each other's data.
 */
import type { AudioDecoder } from './audio/decode';
import type { PrefixCache } from './chat/prefix-cache';
import type { Clock } from './clock';
import type { DeferredStore } from './deferred';
import type { FileStore } from './files/store';
import type { CodecPool } from './media/codec-pool';
import type { MediaStore } from './media/store';
import type { CompactionCodec } from './responses/compaction';
import type { ResponseStore } from './responses/store';
import type { VideoService } from './video/service';

export interface SandboxEnv {
  clock: Clock;
  tokenDelayMs: number;
  deferredDelayMs: number;
  deferred: DeferredStore;
  prefixCache: PrefixCache;
  /** Stored responses (per team, 30 days on `clock`). */
  responses: ResponseStore;
  /** Signs and reads compaction items. */
  compaction: CompactionCodec;
  /** Uploaded files (per team, bytes on disk) and the upload size limit (413 above it). */
  files: FileStore;
  maxFileBytes: number;
  /** Video jobs, their bytes and their encoder. */
  videos: VideoService;
  /** Produced media served at `/media/...` (in memory, LRU by bytes, URLs expire on `clock`). */
  media: MediaStore;
  /** JPEG / PNG encoding and decoding in worker threads, off the event loop. */
  codecs: CodecPool;
  /** Audio files -> PCM with kept WebAssembly decoders (speech to text, custom voices). */
  audioDecoder: AudioDecoder;
  log: (line: string) => void;
}
