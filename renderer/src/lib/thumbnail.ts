/**
 * Thumbnails made in the page: the browser decodes images (createImageBitmap) and video frames
 * (a hidden <video> seeked to 0.1 s) natively, and audio (decodeAudioData at a low rate, drawn as
 * a mini waveform), a canvas scales them to at most 512 px on the long
 * side, and toBlob encodes WebP (JPEG where the browser has no WebP encoder), stepping the
 * quality and size down until it fits the 256 KB main accepts.
 */
import type { GalleryItem } from '@shared/contract/gallery';
import { audioPeaks } from './audio-peaks';

export { AUDIO_THUMB_MAX_SECONDS } from './audio-peaks';

export const THUMB_MAX_SIDE = 512;
export const THUMB_MAX_BYTES = 256 * 1024;

export interface Thumbnail {
  mime: 'image/webp' | 'image/jpeg';
  bytes: Uint8Array;
}

type Source = CanvasImageSource & { width?: number; height?: number; videoWidth?: number; videoHeight?: number };

async function decodeImage(url: string): Promise<{ source: Source; width: number; height: number; done: () => void }> {
  const blob = await (await fetch(url)).blob();
  const bitmap = await createImageBitmap(blob);
  return { source: bitmap, width: bitmap.width, height: bitmap.height, done: () => bitmap.close() };
}

function videoFrame(url: string, at = 0.1): Promise<{ source: Source; width: number; height: number; done: () => void }> {
  return new Promise((resolve, reject) => {
    const video = document.createElement('video');
    video.muted = true;
    video.preload = 'auto';
    video.playsInline = true;
    const cleanup = (): void => {
      video.removeAttribute('src');
      video.load();
    };
    video.addEventListener('error', () => (cleanup(), reject(new Error('the video could not be decoded'))), { once: true });
    video.addEventListener('loadedmetadata', () => (video.currentTime = Math.min(at, Math.max(0, (video.duration || at) - 0.01))), { once: true });
    video.addEventListener('seeked', () => resolve({ source: video, width: video.videoWidth, height: video.videoHeight, done: cleanup }), { once: true });
    video.src = url;
  });
}

/** Decoding rate for the outline: enough for its shape, small enough for 10 minutes (~19 MB). */
const AUDIO_THUMB_RATE = 8_000;

/** The audio as a mini waveform: bars on a light ground (opaque, so a JPEG fallback looks the same). */
async function audioWaveform(url: string): Promise<{ source: Source; width: number; height: number; done: () => void }> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`the audio could not be read (HTTP ${response.status})`);
  const decoded = await new OfflineAudioContext(1, 1, AUDIO_THUMB_RATE).decodeAudioData(await response.arrayBuffer());
  const channels = Array.from({ length: decoded.numberOfChannels }, (_, c) => decoded.getChannelData(c));
  const [width, height, bar] = [320, 180, 3];
  const peaks = audioPeaks(channels, Math.floor(width / bar));
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('no 2D canvas');
  ctx.fillStyle = '#eef2f6';
  ctx.fillRect(0, 0, width, height);
  ctx.fillStyle = '#0f766e';
  peaks.forEach((p, i) => {
    const h = Math.max(2, p * (height - 24));
    ctx.fillRect(i * bar, (height - h) / 2, bar - 1, h);
  });
  return { source: canvas, width, height, done: () => undefined };
}

function toBlob(canvas: HTMLCanvasElement, mime: string, quality: number): Promise<Blob | null> {
  return new Promise((resolve) => canvas.toBlob(resolve, mime, quality));
}

/** Draws `source` at most `side` px on its long side and encodes it under THUMB_MAX_BYTES. */
async function encode(source: Source, width: number, height: number): Promise<Thumbnail> {
  for (const side of [THUMB_MAX_SIDE, 384, 256]) {
    const scale = Math.min(1, side / Math.max(width, height, 1));
    const canvas = document.createElement('canvas');
    canvas.width = Math.max(1, Math.round(width * scale));
    canvas.height = Math.max(1, Math.round(height * scale));
    const ctx = canvas.getContext('2d');
    if (!ctx) throw new Error('no 2D canvas');
    ctx.drawImage(source, 0, 0, canvas.width, canvas.height);
    for (const quality of [0.8, 0.6]) {
      let blob = await toBlob(canvas, 'image/webp', quality);
      // A browser without a WebP encoder answers PNG: use JPEG then.
      if (!blob || blob.type !== 'image/webp') blob = await toBlob(canvas, 'image/jpeg', quality);
      if (blob && blob.size > 0 && blob.size <= THUMB_MAX_BYTES) {
        return { mime: blob.type === 'image/webp' ? 'image/webp' : 'image/jpeg', bytes: new Uint8Array(await blob.arrayBuffer()) };
      }
    }
  }
  throw new Error('the thumbnail stayed over 256 KB');
}

/** Makes the item's thumbnail from its full-size media. */
export async function makeThumbnail(item: Pick<GalleryItem, 'kind' | 'url'>): Promise<Thumbnail> {
  const decoded = item.kind === 'video' ? await videoFrame(item.url.url) : item.kind === 'audio' ? await audioWaveform(item.url.url) : await decodeImage(item.url.url);
  try {
    return await encode(decoded.source, decoded.width, decoded.height);
  } finally {
    decoded.done();
  }
}

