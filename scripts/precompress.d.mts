import type { Plugin } from 'vite';

/** Writes `.br` and `.gz` copies beside the renderer build's text assets. */
export function precompress(): Plugin;
