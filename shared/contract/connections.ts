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

/**
 * Why `baseUrl` cannot be saved, or null. A user name or password in the URL would be stored in
 * plain text, shown in the page and sent in every exported snippet: the key belongs in its field.
 */
export function baseUrlProblem(baseUrl: string): string | null {
  if (!z.url().safeParse(baseUrl).success) return 'base URL must be a URL such as https://api.example.com';
  if (!/^https?:\/\//i.test(baseUrl)) return 'base URL must start with http:// or https://';
  // The authority runs to the first / ? or #; an @ in it separates user information from the host.
  const authority = /^https?:\/\/([^/?#]*)/i.exec(baseUrl)?.[1] ?? '';
  if (authority.includes('@')) return 'base URL must not contain a user name or password (user:secret@…): put the API key in the API key field';
  return null;
}

/**
 * Why `apiKey` (already trimmed) cannot be sent as an HTTP header, or null. Caught here, a pasted
 * line break or a smart quote is named; caught by the HTTP client, it would fail as a "network"
 * error at the first request.
 */
export function apiKeyProblem(apiKey: string): string | null {
  if (/[\r\n]/.test(apiKey)) return 'API key contains a line break: paste the key alone, on one line';
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  if (/[\u0000-\u001f\u007f]/.test(apiKey)) return 'API key contains a control character (such as NUL or a tab): paste the key again';
  if (/[^\u0020-\u007e]/.test(apiKey)) return 'API key contains a non-ASCII character (such as a smart quote or a non-breaking space): keys are plain ASCII';
  if (/ /.test(apiKey)) return 'API key contains a space: paste the key alone, without "Bearer" or other text';
  return null;
}

export const SaveConnectionSchema = z
  .object({
    id: ConnectionIdSchema.optional(),
    name: z.string().trim().min(1, 'name is required').max(100),
    baseUrl: z
      .string()
      .trim()
      // One check, so a bad URL gets one message rather than two that overlap under the field.
      .superRefine((u, ctx) => {
        const problem = baseUrlProblem(u);
        if (problem) ctx.addIssue({ code: 'custom', message: problem });
      }),
    /** Omitted or empty keeps the stored key. Surrounding white space (a pasted newline) is trimmed. */
    apiKey: z
      .string()
      .max(4096)
      .superRefine((key, ctx) => {
        const problem = apiKeyProblem(key.trim());
        if (problem) ctx.addIssue({ code: 'custom', message: problem });
      })
      .optional(),
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
