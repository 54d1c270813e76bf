/**
 * Connections: the built-in sandbox and user profiles (name, base URL, API key). The key goes in
 * (save) and never comes out: profiles carry only `hasKey`.
 */
import { z } from 'zod';
import { call, event } from './define';

export const SANDBOX_CONNECTION_ID = 'sandbox';

export interface ConnectionProfile {
  id: string;
  name: string;
  kind: 'sandbox' | 'remote';
  baseUrl: string;
  hasKey: boolean;
}

export type KeyStorageBackend = 'safeStorage' | 'basic_text' | 'file' | 'unavailable';

export interface ConnectionsState {
  activeId: string;
  profiles: ConnectionProfile[];
  keyStorage: { backend: KeyStorageBackend; warning: string | null };
}

export interface ConnectionTestResult {
  ok: true;
  models: string[];
  latencyMs: number;
}

export const ConnectionIdSchema = z.string().min(1).max(64).regex(/^[a-z0-9-]+$/, 'connection id must be lowercase letters, digits or dashes');

export const SaveConnectionSchema = z
  .object({
    id: ConnectionIdSchema.optional(),
    name: z.string().trim().min(1, 'name is required').max(100),
    baseUrl: z
      .string()
      .trim()
      .url('base URL must be a URL such as https://api.example.com')
      .refine((u) => /^https?:\/\//i.test(u), 'base URL must start with http:// or https://'),
    /** Omitted or empty keeps the stored key. */
    apiKey: z.string().max(4096).optional(),
  })
  .strict();

export type SaveConnectionInput = z.infer<typeof SaveConnectionSchema>;

export const connectionsContract = {
  list: call<ConnectionsState>()(z.object({}).strict().optional()),
  save: call<ConnectionProfile>()(SaveConnectionSchema),
  remove: call<ConnectionsState>()(z.object({ id: ConnectionIdSchema }).strict()),
  select: call<ConnectionsState>()(z.object({ id: ConnectionIdSchema }).strict()),
  test: call<ConnectionTestResult>()(z.object({ id: ConnectionIdSchema }).strict()),
  changed: event<ConnectionsState>(),
};
