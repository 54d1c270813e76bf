/**
 * Records PCM16 to a WAV file as it arrives: a header with placeholder sizes, the samples
 * appended, and the sizes patched on close. A file left by a crash has a valid header with a
 * zero data size, which parseWav() (and most players) read to the end of the file.
 */
import { closeSync, fsyncSync, openSync, writeSync } from 'node:fs';
import { wavHeader } from '../../shared/audio/wav';

export class WavRecorder {
  private fd: number | null;
  private dataBytes = 0;

  constructor(
    readonly path: string,
    readonly sampleRate: number,
    readonly channels: number,
  ) {
    this.fd = openSync(path, 'w', 0o600);
    // Sizes 0 until close: "read to the end" for a file that was never finished.
    writeSync(this.fd, wavHeader({ sampleRate, channels, dataBytes: 0 }));
  }

  /** Appends interleaved samples. */
  write(pcm: Int16Array): void {
    if (this.fd === null) throw new Error(`WavRecorder: ${this.path} is closed`);
    if (pcm.length % this.channels !== 0) throw new RangeError(`${pcm.length} samples are not whole ${this.channels}-channel frames`);
    const bytes = new Uint8Array(pcm.length * 2);
    const view = new DataView(bytes.buffer);
    for (let i = 0; i < pcm.length; i++) view.setInt16(i * 2, pcm[i], true);
    writeSync(this.fd, bytes);
    this.dataBytes += bytes.length;
  }

  get durationMs(): number {
    return (this.dataBytes / 2 / this.channels / this.sampleRate) * 1000;
  }

  /** Patches the header's sizes and closes the file. */
  dispose(): void {
    if (this.fd === null) return;
    const header = wavHeader({ sampleRate: this.sampleRate, channels: this.channels, dataBytes: this.dataBytes });
    writeSync(this.fd, header, 0, header.length, 0);
    fsyncSync(this.fd);
    closeSync(this.fd);
    this.fd = null;
  }
}
