/**
 * What a speech run keeps of its audio: the bytes in the gallery (kind `audio`, the blob store)
 * so History and the page play it by URL, offline. Headerless codecs (pcm, µ-law, A-law) cannot
 * be played by a page as they are, so they are kept as WAV (16-bit PCM, G.711 expanded); MP3 and
 * WAV are kept exactly as the service sent them. Streamed chunks' timestamps are joined into one
 * utterance-long list.
 */
import { decodeAlaw, decodeMulaw } from '../../../shared/audio/g711';
import { encodeWav } from '../../../shared/audio/wav';
import type { GalleryItem } from '../../../shared/contract/gallery';
import type { AudioTimestamps, TtsCodec } from '../../../shared/wire/tts';
import type { GalleryService } from '../../services/gallery-service';

/** The bytes as a file a page plays, with its type and extension. */
export function playable(audio: Uint8Array, codec: TtsCodec | null, sampleRate: number): { bytes: Uint8Array; mime: string; ext: string } {
  switch (codec) {
    case 'pcm': {
      const even = audio.byteLength - (audio.byteLength % 2);
      const samples = new Int16Array(even / 2);
      const view = new DataView(audio.buffer, audio.byteOffset, even);
      for (let i = 0; i < samples.length; i++) samples[i] = view.getInt16(i * 2, true);
      return { bytes: encodeWav({ sampleRate, channels: 1, samples }), mime: 'audio/wav', ext: 'wav' };
    }
    case 'mulaw':
    case 'ulaw':
      return { bytes: encodeWav({ sampleRate, channels: 1, samples: decodeMulaw(audio) }), mime: 'audio/wav', ext: 'wav' };
    case 'alaw':
      return { bytes: encodeWav({ sampleRate, channels: 1, samples: decodeAlaw(audio) }), mime: 'audio/wav', ext: 'wav' };
    case 'wav':
      return { bytes: audio, mime: 'audio/wav', ext: 'wav' };
    default:
      return { bytes: audio, mime: 'audio/mpeg', ext: 'mp3' };
  }
}

/** A file name from the text's first words (`hello-there.mp3`). */
export function speechFileName(text: string, ext: string): string {
  const words = text.replace(/\[[^\]]*\]|<\/?[a-z-]+>/g, ' ').toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return `${words.slice(0, 8).join('-').slice(0, 60).replace(/-+$/, '') || 'speech'}.${ext}`;
}

/** Keeps the audio in the gallery, linked to its run. */
export async function keepSpeech(
  gallery: Pick<GalleryService, 'add'>,
  audio: Uint8Array,
  o: { codec: TtsCodec | null; sampleRate: number; text: string; voice: string; runId: string; duration: number | null },
): Promise<GalleryItem | null> {
  if (audio.byteLength === 0) return null;
  const file = playable(audio, o.codec, o.sampleRate);
  return gallery.add({ data: file.bytes, kind: 'audio', mime: file.mime, origin: 'generated', prompt: o.text.slice(0, 2000), model: o.voice, name: speechFileName(o.text, file.ext), runId: o.runId, duration: o.duration });
}

/**
 * Joins chunks' timestamps into one list for the utterance. The sandbox times each chunk from the
 * utterance's start; a service timing each chunk from its own start is recognised (a chunk
 * beginning before the previous one ended) and offset by the audio before it.
 */
export class TimestampJoin {
  private chars: string[] = [];
  private times: number[][] = [];
  private audioBefore = 0;
  private relative: boolean | null = null;

  add(ts: AudioTimestamps | null, duration: number | null): void {
    if (ts && ts.graph_chars.length > 0) {
      const first = ts.graph_times[0]?.[0] ?? 0;
      const lastEnd = this.times.at(-1)?.[1] ?? 0;
      if (this.relative === null && this.times.length > 0) this.relative = first + 1e-3 < lastEnd;
      const offset = this.relative ? this.audioBefore : 0;
      this.chars.push(...ts.graph_chars);
      this.times.push(...ts.graph_times.map((t) => t.map((x) => Math.round((x + offset) * 1000) / 1000)));
    }
    this.audioBefore += duration ?? 0;
  }

  result(): AudioTimestamps | null {
    return this.chars.length > 0 ? { graph_chars: this.chars, graph_times: this.times } : null;
  }
}
