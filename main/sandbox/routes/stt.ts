/**
 * Speech to text (spec "Voice - speech to text", wire-notes 4): `POST /v1/stt` (multipart: the
 * options, then `file` last or a `url`) answering the Speech-to-text result, and the WebSocket
 * `/v1/stt` (query parameters checked before the upgrade; then stt/session.ts drives it).
 * Transcripts are synthetic but grounded in the audio (stt/README.md).
 */
import { float32ToInt16 } from '../../../shared/audio';
import type { AudioDecoder, AudioDecodeResult } from '../audio/decode';
import type { SandboxEnv } from '../env';
import { SandboxError } from '../errors';
import { ownUrlMatcher } from '../media/input';
import { sendJson, type RequestContext, type Route } from '../route';
import type { SocketContext, SocketRoute, UpgradeContext } from '../socket-route';
import { fetchAudioUrl } from '../stt/audio-url';
import { readSttForm } from '../stt/form';
import { MAX_FRAME_BYTES } from '../stt/frames';
import { parseFormFields, parseStreamParams, SttParamError, type StreamOptions } from '../stt/params';
import { SttSession, type SessionStep } from '../stt/session';
import { transcribe } from '../stt/transcribe';

/** The transcription family's shared parts: the sandbox's one kept set of file decoders (`env.audioDecoder`). */
export class SttService {
  constructor(private readonly decoder: AudioDecoder) {}

  fileDecoder(): AudioDecoder {
    return this.decoder;
  }

  /** The decoders belong to the sandbox (disposed with it); nothing of the service's own to release. */
  close(): void {}
}

function paramError(err: unknown): never {
  if (err instanceof SttParamError) throw new SandboxError(400, err.message);
  throw err;
}

async function transcribeRequest(env: SandboxEnv, stt: SttService, ctx: RequestContext): Promise<void> {
  const form = await readSttForm(ctx.req, env.maxFileBytes);
  let opts: ReturnType<typeof parseFormFields>;
  try {
    opts = parseFormFields(form.fields, form.file !== null);
  } catch (err) {
    paramError(err);
  }
  const bytes = form.file ?? (await fetchAudioUrl(opts.url!, { files: env.files, nowMs: env.clock.now(), isOwnUrl: ownUrlMatcher(ctx.req), maxBytes: env.maxFileBytes }));
  const { decodeRaw } = await import('../audio/decode');
  const decoded: AudioDecodeResult = opts.audioFormat
    ? decodeRaw(bytes, { encoding: opts.audioFormat, sampleRate: opts.sampleRate!, channels: opts.channels ?? 1 })
    : await stt.fileDecoder().decodeFile(bytes);
  if (!decoded.ok) {
    const hint = opts.audioFormat ? '' : ' Raw audio without a header needs audio_format (pcm, mulaw or alaw) and sample_rate.';
    throw new SandboxError(400, `${decoded.error.message}${hint}`);
  }
  const { audio } = decoded;
  const pcm = audio.channels.map((c) => float32ToInt16(c));
  const options = { language: opts.language, diarize: opts.diarize, multichannel: opts.multichannel, style: opts.style, signal: ctx.signal };
  const result = await transcribe(pcm, audio.sampleRate, options).catch((err: unknown) => {
    if (ctx.signal.aborted) return null;
    throw err;
  });
  if (!result || ctx.signal.aborted) return;
  sendJson(ctx.res, 200, result);
}

/** `POST /v1/stt`. */
export function sttRoutes(env: SandboxEnv, stt: SttService): Route[] {
  return [{ method: 'POST', path: '/v1/stt', body: 'stream', handle: (ctx) => transcribeRequest(env, stt, ctx) }];
}

function send(ctx: SocketContext, step: SessionStep): void {
  for (const m of step.messages) ctx.ws.send(JSON.stringify(m));
  if (step.close) ctx.ws.close(step.close.code, step.close.reason);
}

/** Runs one connection: messages are handled in arrival order, after the session is ready. */
function openSession(ctx: SocketContext, options: StreamOptions, log: (line: string) => void): void {
  let session: SttSession | null = null;
  let chain: Promise<void> = SttSession.create(options).then((s) => {
    session = s;
    if (ctx.signal.aborted) s.end();
    else send(ctx, s.start());
  });
  const fail = (err: unknown) => {
    for (const line of `${ctx.requestId} /v1/stt session failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`.split('\n')) log(line);
    ctx.ws.close(1011, 'The sandbox hit an internal error; see its log.');
  };
  chain = chain.catch(fail);
  ctx.ws.on('message', (data, isBinary) => {
    const bytes = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer);
    chain = chain
      .then(() => {
        if (!session || session.isEnded || ctx.signal.aborted) return;
        send(ctx, isBinary ? session.audio(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength)) : session.message(bytes.toString('utf8')));
      })
      .catch(fail);
  });
  ctx.ws.once('close', () => {
    void chain.then(() => session?.end());
  });
}

/** WebSocket `/v1/stt`. */
export function sttSocketRoutes(log: (line: string) => void): SocketRoute[] {
  const route: SocketRoute<StreamOptions> = {
    path: '/v1/stt',
    maxPayload: MAX_FRAME_BYTES,
    check(ctx: UpgradeContext) {
      try {
        return parseStreamParams(ctx.query.entries());
      } catch (err) {
        paramError(err);
      }
    },
    open: (ctx, options) => openSession(ctx, options, log),
  };
  return [route];
}
