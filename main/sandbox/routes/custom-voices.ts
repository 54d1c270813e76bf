/**
 * Custom voices (spec "Voice - custom voices", wire-notes §6.1), per team: create from a multipart
 * form (the reference clip decoded to check it is audio of at most 120 s, and to take its median
 * pitch, from which the voice speaks), list with `limit` and `pagination_token`, get, PATCH,
 * DELETE, and the reference audio back. A custom voice's id works in /v1/tts (REST and WebSocket).
 */
import { LIMITS } from '../../../shared/limits';
import { mixToMono, sniffAudio, type AudioDecoder } from '../audio/decode';
import type { Clock } from '../clock';
import { SandboxError } from '../errors';
import { sendJson, type RequestContext, type Route } from '../route';
import { medianPitch } from '../tts/pitch';
import { readVoiceForm } from '../voices/form';
import { checkCreateFields, checkPatch } from '../voices/rules';
import type { CustomVoiceStore } from '../voices/store';

export interface CustomVoiceDeps {
  store: CustomVoiceStore;
  decoder: AudioDecoder;
  clock: Clock;
  maxBytes: number;
}

const AUDIO_TYPES: Record<string, string> = { wav: 'audio/wav', mp3: 'audio/mpeg', flac: 'audio/flac', 'ogg-flac': 'audio/ogg', 'ogg-opus': 'audio/ogg', 'ogg-vorbis': 'audio/ogg', mp4: 'audio/mp4', matroska: 'audio/webm', aac: 'audio/aac' };

function notFound(id: string): SandboxError {
  return new SandboxError(404, `Custom voice ${id} does not exist (or belongs to another team).`);
}

async function create(deps: CustomVoiceDeps, ctx: RequestContext): Promise<void> {
  const form = await readVoiceForm(ctx.req, deps.maxBytes);
  const checked = checkCreateFields(form.fields);
  const errors = 'errors' in checked ? [...checked.errors] : [];
  if (!form.file) errors.push('file is required: the reference audio (WAV, MP3, FLAC or Ogg Opus, at most 120 seconds), as the last part of the form');
  if (errors.length > 0 || 'errors' in checked || !form.file) throw new SandboxError(400, errors.join('; '));
  const decoded = await deps.decoder.decodeFile(form.file.bytes);
  if (!decoded.ok) throw new SandboxError(400, `The reference audio cannot be used: ${decoded.error.message}`);
  const max = LIMITS.customVoiceAudioSeconds.max;
  if (decoded.audio.duration > max) {
    throw new SandboxError(400, `The reference audio is ${decoded.audio.duration.toFixed(1)} seconds long; the limit is ${max} seconds. Trim it (for example: ffmpeg -i in.wav -t ${max} out.wav).`);
  }
  const hz = medianPitch(mixToMono(decoded.audio), decoded.audio.sampleRate);
  const voice = deps.store.create(ctx.team, checked.metadata, form.file.bytes, hz, deps.clock.now());
  sendJson(ctx.res, 201, voice);
}

function list(deps: CustomVoiceDeps, ctx: RequestContext): void {
  const { min, max, default: def } = LIMITS.customVoiceListLimit;
  const raw = ctx.query.get('limit');
  const limit = raw === null ? def : Number(raw);
  if (raw !== null && (raw.trim() === '' || !Number.isInteger(limit) || limit < min || limit > max)) {
    throw new SandboxError(400, `limit must be an integer from ${min} to ${max}; got "${raw.slice(0, 40)}"`);
  }
  const token = ctx.query.get('pagination_token');
  const page = deps.store.list(ctx.team, limit, token === null || token === '' ? null : token);
  if ('unknownToken' in page) throw new SandboxError(400, `pagination_token "${(token ?? '').slice(0, 40)}" is not one this listing gave (or its voice was deleted); start again without it.`);
  sendJson(ctx.res, 200, { voices: page.voices, pagination_token: page.next });
}

export function customVoiceRoutes(deps: CustomVoiceDeps): Route[] {
  const { store } = deps;
  return [
    { method: 'POST', path: '/v1/custom-voices', body: 'stream', handle: (ctx) => create(deps, ctx) },
    { method: 'GET', path: '/v1/custom-voices', handle: (ctx) => list(deps, ctx) },
    {
      method: 'GET',
      path: '/v1/custom-voices/:id',
      handle(ctx) {
        const voice = store.get(ctx.team, ctx.params.id);
        if (!voice) throw notFound(ctx.params.id);
        sendJson(ctx.res, 200, voice);
      },
    },
    {
      method: 'PATCH',
      path: '/v1/custom-voices/:id',
      handle(ctx) {
        if (!store.get(ctx.team, ctx.params.id)) throw notFound(ctx.params.id);
        const checked = checkPatch(ctx.body);
        if ('errors' in checked) throw new SandboxError(400, checked.errors.join('; '));
        sendJson(ctx.res, 200, store.update(ctx.team, ctx.params.id, checked.changes));
      },
    },
    {
      method: 'DELETE',
      path: '/v1/custom-voices/:id',
      handle(ctx) {
        if (!store.delete(ctx.team, ctx.params.id)) throw notFound(ctx.params.id);
        sendJson(ctx.res, 200, { deleted: true });
      },
    },
    {
      method: 'GET',
      path: '/v1/custom-voices/:id/audio',
      handle(ctx) {
        const bytes = store.audio(ctx.team, ctx.params.id);
        if (!bytes) throw notFound(ctx.params.id);
        const kind = sniffAudio(bytes);
        ctx.res.writeHead(200, { 'content-type': (kind && AUDIO_TYPES[kind]) ?? 'application/octet-stream', 'content-length': bytes.length, 'x-content-type-options': 'nosniff' });
        ctx.res.end(bytes);
      },
    },
  ];
}
