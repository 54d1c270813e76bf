/** Reads a 16-bit PCM WAV the way a player would, checking every header field against the data. */
export interface WavInfo {
  sampleRate: number;
  channels: number;
  frames: number;
  samples: Int16Array;
}

export function readPcm16Wav(bytes: Uint8Array): WavInfo {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (b.toString('ascii', 0, 4) !== 'RIFF' || b.toString('ascii', 8, 12) !== 'WAVE') throw new Error('not RIFF/WAVE');
  if (b.readUInt32LE(4) !== b.length - 8) throw new Error(`RIFF size ${b.readUInt32LE(4)} but file has ${b.length - 8}`);
  if (b.toString('ascii', 12, 16) !== 'fmt ' || b.readUInt16LE(20) !== 1 || b.readUInt16LE(34) !== 16) throw new Error('not 16-bit PCM');
  const channels = b.readUInt16LE(22);
  const sampleRate = b.readUInt32LE(24);
  if (b.readUInt32LE(28) !== sampleRate * channels * 2 || b.readUInt16LE(32) !== channels * 2) throw new Error('byte rate / block align wrong');
  if (b.toString('ascii', 36, 40) !== 'data') throw new Error('no data chunk');
  const dataBytes = b.readUInt32LE(40);
  if (dataBytes !== b.length - 44 || dataBytes % (channels * 2) !== 0) throw new Error(`data size ${dataBytes} does not match the file`);
  const samples = new Int16Array(dataBytes / 2);
  for (let i = 0; i < samples.length; i++) samples[i] = b.readInt16LE(44 + i * 2);
  return { sampleRate, channels, frames: dataBytes / (channels * 2), samples };
}

/** `frames` mono frames of a ramp starting at `from` (each sample tells where it came from). */
export function ramp(frames: number, from: number): Uint8Array {
  const out = new Int16Array(frames);
  for (let i = 0; i < frames; i++) out[i] = (from + i) % 30000;
  return new Uint8Array(out.buffer);
}
