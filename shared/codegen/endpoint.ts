/**
 * Which text endpoint a recorded request went to, from its URL path and method: it decides how a
 * snippet reads the answer, which SDK (if any) can send it, and how a tool loop continues.
 */
import type { CapturedRequest } from '../contract/runs';
import { ENDPOINT_DESCRIPTORS, endpointOfRequest, type EndpointDescriptor, type SdkFamily, type TextCodeKind } from '../families';
import { bodyObject } from './request-parts';

/** The text kinds; an endpoint whose family exports it itself, or none at all, is 'other' here. */
export type EndpointKind = TextCodeKind | 'other';

export type { SdkFamily };

/** The descriptors the text exporters write (the rest have their family's exporter). */
const DESCRIPTORS = Object.values(ENDPOINT_DESCRIPTORS).filter((d) => !d.code.exporter);

/** The method both SDKs (Python and TypeScript) name an endpoint by: `client.<method>(...)`. */
export const SDK_METHOD = Object.fromEntries(DESCRIPTORS.map((d) => [d.code.kind, d.code.sdkMethod])) as Record<TextCodeKind, string>;

function codeOf(kind: EndpointKind): EndpointDescriptor['code'] | null {
  return DESCRIPTORS.find((d) => d.code.kind === kind)?.code ?? null;
}

/** Scheme + authority, and the path, of an absolute URL (shared/ has no URL class: no DOM, no Node). */
function splitUrl(url: string): { origin: string; path: string } | null {
  const match = /^([a-z][a-z0-9+.-]*:\/\/[^/?#]+)([^?#]*)/i.exec(url.trim());
  return match ? { origin: match[1]!, path: match[2] || '/' } : null;
}

/** The URL's path without a trailing slash, or '' when it does not parse. */
export function pathOf(url: string): string {
  return splitUrl(url)?.path.replace(/\/+$/, '') ?? '';
}

/** The endpoint a request was sent to; anything unrecognised is 'other'. */
export function endpointKind(method: string, url: string): EndpointKind {
  const endpoint = endpointOfRequest(method, pathOf(url));
  const code = endpoint ? ENDPOINT_DESCRIPTORS[endpoint].code : null;
  return code && !code.exporter ? (code.kind as TextCodeKind) : 'other';
}

/** The official SDK that has a method for the endpoint. */
export function sdkFamily(kind: EndpointKind): SdkFamily | null {
  return codeOf(kind)?.sdk ?? null;
}

/** Endpoints whose answers can call tools the snippet runs (a tool loop). */
export function supportsToolLoop(kind: EndpointKind): boolean {
  return codeOf(kind)?.toolLoop ?? false;
}

/** The response id in a /v1/responses/{id} URL. */
export function responseIdOf(url: string): string {
  return decodeURIComponent(pathOf(url).split('/').pop() ?? '');
}

/** Why there is no SDK snippet for the request, or null when there is one. */
export function sdkGap(request: CapturedRequest): string | null {
  const kind = endpointKind(request.method, request.url);
  if (kind === 'other') return 'No official SDK method covers this endpoint: use curl or plain HTTP.';
  const needsBody = kind !== 'responses-get' && kind !== 'responses-delete';
  if (needsBody && bodyObject(request.body) === null) return 'The SDK takes a JSON object body; this request has none.';
  return null;
}
