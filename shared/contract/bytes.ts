/**
 * Bytes in the contract. A session message or chunk may carry raw bytes as a `Uint8Array` field
 * (`{ seq: 1, data: Uint8Array }`): Electron's IPC structured-clones it as is, and browser mode
 * sends the message as a binary WebSocket frame (binary-frame.ts), never as base64 inside JSON.
 */
import { z } from 'zod';

/**
 * Raw bytes: a `Uint8Array` (a Node Buffer is one too). Typed over any ArrayBufferLike, as the
 * views a decoded frame or a structured clone hand out are.
 */
export const BytesSchema = z.custom<Uint8Array>((value) => value instanceof Uint8Array, { message: 'expected bytes (a Uint8Array)' });

/**
 * Suggested largest `Uint8Array` per message: big enough to keep per-message costs small, small
 * enough that a frame never comes near MAX_MESSAGE_BYTES and back-pressure stays fine-grained.
 */
export const BYTES_PER_MESSAGE = 1024 * 1024;
