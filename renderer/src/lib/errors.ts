/**
 * Turns whatever a call rejected with into a WorkbenchError value, and words it for a person
 * (toasts and inline error blocks show the same text).
 */
import { WorkbenchFailure, isWorkbenchError, type WorkbenchError } from '@shared/contract/errors';
import type { LinkStatus } from '../api';

/**
 * Whether `error` only repeats that this page's access token is missing or refused: the banner at
 * the top (BridgeStatus) says that once, so the places a failed call would show stay quiet.
 */
export function isSaidByLinkBanner(error: WorkbenchError | null | undefined, link: LinkStatus): boolean {
  return !!error && error.code === 'network' && (link === 'no-token' || link === 'unauthorized');
}

/** Any thrown value -> WorkbenchError (a bridge failure keeps its code, status and request id). */
export function toWorkbenchError(err: unknown): WorkbenchError {
  if (err instanceof WorkbenchFailure) return err.error;
  if (err && typeof err === 'object' && 'error' in err && isWorkbenchError((err as { error: unknown }).error)) {
    return (err as { error: WorkbenchError }).error;
  }
  if (isWorkbenchError(err)) return err;
  const message = err instanceof Error ? err.message : String(err);
  return { code: 'internal', message };
}

/** `api_error 429 · request abc123` — the facts someone reporting a problem needs. */
export function errorFacts(error: WorkbenchError): string {
  const parts: string[] = [error.code];
  if (error.status !== undefined) parts.push(`HTTP ${error.status}`);
  if (error.serviceCode) parts.push(error.serviceCode);
  if (error.requestId) parts.push(`request ${error.requestId}`);
  return parts.join(' · ');
}

/**
 * A realtime call's short-lived client secret refused (expired or unknown; main/api/realtime.ts
 * marks it `secret_refused`), not the connection's key: nothing to fix in Connections.
 * Every check here reads the error's `reason`, never its words: main may reword the message.
 */
export function clientSecretRefused(error: WorkbenchError): boolean {
  return error.reason === 'secret_refused';
}

/**
 * A refusal whose fix is another key: main marks it `team_key_needed` (main/api/realtime.ts
 * realtimeRefusal: joining a SIP call needs the API key of the team that owns its number). Any
 * other 403 (a file of another team, a permission or credits the team lacks) is not fixed by
 * editing the key.
 */
function otherKeyNeeded(error: WorkbenchError): boolean {
  return error.reason === 'team_key_needed';
}

/**
 * The connection's API key is the fix: main marks the refused key `key_refused` (a 401, or the
 * service's 400 "Incorrect API key", wire-notes §7), or says another team's key is needed. Fixed
 * in Connections; a refused client secret and other 403s are not.
 */
export function keyRefused(error: WorkbenchError): boolean {
  return error.reason === 'key_refused' || otherKeyNeeded(error);
}

/** What to try next, by error code: the message says what went wrong, this says what to do. */
export function errorHint(error: WorkbenchError): string | null {
  switch (error.code) {
    case 'network':
      return 'Check the base URL and that the service is reachable, then try again.';
    case 'timeout':
      return 'The service took too long; try again or lower max_completion_tokens.';
    case 'config':
      return 'Open Connections and check the profile (API key, base URL).';
    case 'invalid_input':
      return 'Fix the highlighted fields and send again.';
    case 'stream_incomplete':
      return 'The stream was cut off; the partial output is kept above. Try again.';
    case 'api_error':
      if (clientSecretRefused(error)) return 'Start the call again: a new client secret is minted each time.';
      if (otherKeyNeeded(error)) return "This needs the API key of another team: set that team's key in Connections.";
      if (keyRefused(error)) return 'The API key was refused: update it in Connections.';
      if (error.status === 403) return "Access was denied with this key: the resource may belong to another team, or the key's team lacks the permission or credits.";
      if (error.status === 429) return 'Rate limited: wait a moment and try again.';
      if (error.status !== undefined && error.status >= 500) return 'The service failed; try again shortly.';
      return null;
    default:
      return null;
  }
}
