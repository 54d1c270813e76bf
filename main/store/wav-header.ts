/**
 * The 44-byte header of a 16-bit PCM WAV file, for recordings finalised from their raw tracks.
 * (shared/audio is to carry the app's WAV codec; this is the one header a track needs, kept here so
 * the store does not wait on it.)
 */

/** Bytes of the header before the samples. */
export const WAV_HEADER_BYTES = 44;

/** A canonical RIFF/WAVE header for `dataBytes` of interleaved 16-bit little-endian samples. */
export function pcm16WavHeader(sampleRate: number, channels: number, dataBytes: number): Buffer {
  const header = Buffer.alloc(WAV_HEADER_BYTES);
  const blockAlign = channels * 2;
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + dataBytes, 4);
  header.write('WAVE', 8, 'ascii');
  header.write('fmt ', 12, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(channels, 22);
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * blockAlign, 28);
  header.writeUInt16LE(blockAlign, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(dataBytes, 40);
  return header;
}
