/**
 * Extra request headers a user adds in a playground: which names the app owns (refused, with
 * why), which look secret (their values are masked wherever a request is recorded or shown), and
 * the reason a typed header cannot be sent. One definition for the contract's schema, main's
 * recorder and the renderer's editor.
 */

/** Headers the app sets itself, with why a user's value would be wrong. */
const APP_OWNED: Record<string, string> = {
  authorization: "the app sends the connection's API key in Authorization (set it in Connections)",
  'x-api-key': "the app sends the connection's API key (set it in Connections)",
  'content-type': 'the app sets Content-Type from the body it sends (application/json)',
  'content-length': 'the HTTP library counts the body',
  host: "the host comes from the connection's base URL",
  connection: 'the HTTP library manages the connection',
  'transfer-encoding': 'the HTTP library frames the body',
};

/** Names whose values are secrets as far as anyone can tell: masked in records and the inspector. */
const SECRET_NAME = /key|token|secret|authorization|cookie|password|credential/i;
/** Names that match SECRET_NAME but hold nothing secret: an Idempotency-Key is the app's own job id. */
const PUBLIC_NAME = /^idempotency-key$/i;

/** Longest header value accepted (the contract's limit). */
export const MAX_HEADER_VALUE = 2048;

/** Whether a header's value is masked wherever the request is stored or shown. */
export function isSecretHeader(name: string): boolean {
  return SECRET_NAME.test(name) && !PUBLIC_NAME.test(name);
}

/** Why the app will not send a header under this name, or null when it may be set. */
export function appOwnedReason(name: string): string | null {
  return APP_OWNED[name.trim().toLowerCase()] ?? null;
}

/** Why `name: value` cannot be sent as an extra header, or null when it can. */
export function headerProblem(name: string, value: string): string | null {
  if (name.trim() === '') return 'give the header a name';
  if (!/^[A-Za-z0-9-]{1,64}$/.test(name)) return 'header names are letters, digits and dashes (at most 64)';
  const owned = appOwnedReason(name);
  if (owned) return `${name} cannot be set here: ${owned}`;
  if (/[\r\n]/.test(value)) return 'header values cannot contain line breaks';
  // What HTTP carries in a header as text; anything else fails later as a misleading network error.
  if (!/^[\t\x20-\x7e]*$/.test(value)) return 'header values are printable ASCII (no control characters or accents)';
  if (value.length > MAX_HEADER_VALUE) return `header values are at most ${MAX_HEADER_VALUE} characters`;
  return null;
}
