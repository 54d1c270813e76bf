/**
 * The whole contract: every operation the renderer may ask of main, and every event main pushes.
 * Channel names are derived (`family.method`); see define.ts.
 */
import { appContract, opsContract, streamsContract } from './app';
import { audioContract } from './audio';
import { chatContract } from './chat';
import { completionsContract } from './completions';
import { connectionsContract } from './connections';
import { draftsContract } from './drafts';
import { filesContract } from '../families/files/contract';
import { galleryContract } from './gallery';
import { historyContract } from './history';
import { imagesContract } from '../families/images/contract';
import { speechContract } from '../families/speech/contract';
import { mediaContract } from './media';
import { jobsContract } from './jobs';
import { liveContract } from './live';
import { messagesContract } from './messages';
import { modelsContract } from '../families/models/contract';
import { responsesContract } from './responses';
import { toolsContract } from './tools';
import { userFilesContract } from './user-files';
import { videosContract } from '../families/videos/contract';
import { transcriptionContract } from '../families/transcription/contract';
import { voicesContract } from '../families/voices/contract';

export const contract = {
  app: appContract,
  streams: streamsContract,
  ops: opsContract,
  connections: connectionsContract,
  models: modelsContract,
  chat: chatContract,
  responses: responsesContract,
  messages: messagesContract,
  completions: completionsContract,
  history: historyContract,
  tools: toolsContract,
  media: mediaContract,
  audio: audioContract,
  jobs: jobsContract,
  files: filesContract,
  userFiles: userFilesContract,
  drafts: draftsContract,
  images: imagesContract,
  speech: speechContract,
  videos: videosContract,
  transcription: transcriptionContract,
  gallery: galleryContract,
  live: liveContract,
  voices: voicesContract,
} as const;

export type WorkbenchContract = typeof contract;

export * from './define';
export * from './errors';
export * from './bytes';
export type { ApiFor, CallOptions, SessionHandle, StreamHandle, WorkbenchApi } from './api';
