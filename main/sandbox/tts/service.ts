/**
 * Text-to-speech for the routes: the kept eSpeak engine and synthesiser, voice and language
 * resolution (404 for an unknown voice), and an utterance as encoded parts. REST joins the parts;
 * the WebSocket sends each as one `audio.delta`.
 */
import { SandboxError } from '../errors';
import type { TtsSettings } from './request';
import { CONTENT_TYPES, createEncoder, mp3Duration } from './codecs';
import { sharedEspeakEngine } from './espeak';
import { espeakLanguage } from './languages';
import { normalizeText } from './normalize';
import { Synthesizer } from './synth';
import { builtInProfile, type VoiceProfile } from './voice-profiles';

/** Finds a team's custom voice profile (the custom voice store). */
export type CustomVoiceLookup = (team: string, voiceId: string) => VoiceProfile | undefined;

export interface EncodedPart {
  bytes: Uint8Array;
  chars: string[];
  times: Array<[number, number]>;
  /** Seconds of audio this part's samples hold. */
  duration: number;
}

export interface TtsResult {
  audio: Uint8Array;
  contentType: string;
  duration: number;
  chars: string[];
  times: Array<[number, number]>;
}

export class TtsService {
  readonly engine = sharedEspeakEngine();
  private readonly synth = new Synthesizer(this.engine);

  constructor(private readonly customVoice: CustomVoiceLookup) {}

  /** The voice's profile; 404 when it is neither built in nor one of the team's custom voices. */
  profile(team: string, voiceId: string): VoiceProfile {
    const found = builtInProfile(voiceId) ?? this.customVoice(team, voiceId.toLowerCase());
    if (!found) {
      throw new SandboxError(404, `Voice ${voiceId} does not exist: use a built-in voice (eve, ara, rex, sal, leo; GET /v1/tts/voices) or one of your team's custom voices (GET /v1/custom-voices).`);
    }
    return found;
  }

  /** The eSpeak language; 400 when the tag is malformed or unknown. */
  language(language: string, text: string): string {
    const found = espeakLanguage(language, text);
    if ('error' in found) throw new SandboxError(400, found.error);
    return found.voice;
  }

  /**
   * One utterance as encoded parts, made one at a time, from its text whole or in segments as
   * they become ready (the WebSocket). `signal` stops it between parts.
   */
  async *utterance(segments: Iterable<string> | AsyncIterable<string>, settings: TtsSettings, profile: VoiceProfile, language: string, signal?: AbortSignal): AsyncGenerator<EncodedPart> {
    const encoder = createEncoder(settings.format, null, (rate, kbps) => this.engine.mp3Stream(rate, kbps));
    let ended = false;
    const normalize = settings.textNormalization;
    const parts = this.synth.parts({
      segments: mapSegments(segments, (t) => (normalize ? normalizeText(t) : t)),
      language,
      profile,
      speed: settings.speed,
      sampleRate: settings.format.sampleRate,
      smallFirstChunk: settings.optimizeStreamingLatency >= 1,
    });
    try {
      for await (const part of parts) {
        if (signal?.aborted) return;
        if (part.tail) {
          // The resampler's last samples and the encoder's held-back bytes: one last part.
          const head = await encoder.write(part.samples);
          ended = true;
          const bytes = Buffer.concat([head, await encoder.end()]);
          if (bytes.length > 0) yield { bytes, chars: [], times: [], duration: part.duration };
        } else yield { bytes: await encoder.write(part.samples), chars: part.chars, times: part.times, duration: part.duration };
      }
    } finally {
      // An abandoned utterance (client gone) still frees its MP3 stream in the worker.
      if (!ended) void encoder.end().catch(() => undefined);
    }
  }

  /** The whole result of `POST /v1/tts`. */
  async synthesize(team: string, text: string, settings: TtsSettings, signal?: AbortSignal): Promise<TtsResult> {
    const profile = this.profile(team, settings.voice);
    const language = this.language(settings.language, text);
    const chunks: Uint8Array[] = [];
    const chars: string[] = [];
    const times: Array<[number, number]> = [];
    let samplesDuration = 0;
    for await (const part of this.utterance([text], settings, profile, language, signal)) {
      chunks.push(part.bytes);
      chars.push(...part.chars);
      times.push(...part.times);
      samplesDuration += part.duration;
    }
    let audio = Buffer.concat(chunks);
    if (settings.format.codec === 'wav') {
      // The streaming header says "to the end"; a whole file gets its exact sizes.
      const frames = (audio.length - 44) / 2;
      audio = Buffer.concat([Buffer.from(await createEncoder(settings.format, frames).end()), audio.subarray(44)]);
    }
    // MP3: what a decoder plays is whole frames (the encoder's delay and last frame's padding included).
    const duration = settings.format.codec === 'mp3' ? mp3Duration(audio) : samplesDuration;
    return { audio, contentType: CONTENT_TYPES[settings.format.codec], duration: Math.round(duration * 1000) / 1000, chars, times };
  }
}


async function* mapSegments(segments: Iterable<string> | AsyncIterable<string>, f: (s: string) => string): AsyncGenerator<string> {
  for await (const s of segments) yield f(s);
}
