/** The audio layer's pure half: PCM, G.711, WAV, resampling, 20 ms frames, levels. */
export * from './errors';
export * from './pcm';
export * from './g711';
export * from './wav';
export * from './resampler';
export * from './frames';
export * from './levels';
export * from './jitter-buffer';
