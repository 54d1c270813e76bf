/**
 * The list of the service's families (one shared module each, see README.md) and everything
 * derived from it: the recorded endpoints and their descriptors, History's labels and entry
 * shapes, the nav, and which exporter writes a run's code. Adding a family is its folder plus one
 * line in FAMILIES; History, the nav, code export and the router read only what is derived here.
 */
import { chatFamily } from './chat/family';
import { filesFamily } from './files/family';
import { imagesFamily } from './images/family';
import { legacyFamily } from './legacy/family';
import { messagesFamily } from './messages/family';
import { modelsFamily } from './models/family';
import { realtimeFamily } from './realtime/family';
import { responsesFamily } from './responses/family';
import { sipFamily } from './sip/family';
import { speechFamily } from './speech/family';
import { transcriptionFamily } from './transcription/family';
import { videosFamily } from './videos/family';
import { voicesFamily } from './voices/family';
import type { EndpointDescriptor, EntryShape, NavEntry, SharedFamily } from './types';

export type * from './types';
export { EXPORT_LANGS } from './types';

/** Every family, in the order History's endpoint filter lists their endpoints. */
export const FAMILIES = [chatFamily, responsesFamily, messagesFamily, legacyFamily, filesFamily, videosFamily, imagesFamily, speechFamily, modelsFamily, transcriptionFamily, voicesFamily, realtimeFamily, sipFamily] as const satisfies readonly SharedFamily[];

type Families = (typeof FAMILIES)[number];

/** Families of the service (a playground's, or one with a view of its own): the listed ids. */
export type FamilyId = Families['id'];

/** Every kind of request a run records: the families' endpoint names. */
export type Endpoint = { [F in Families as F['id']]: keyof F['endpoints'] & string }[Families['id']];

/** The recorded endpoints, in the families' order (History's filter, the contract's enum). */
export const ENDPOINTS = FAMILIES.flatMap((f) => Object.keys(f.endpoints)) as [Endpoint, ...Endpoint[]];

/** Every recorded endpoint's descriptor, with the family that declares it. */
export const ENDPOINT_DESCRIPTORS = Object.fromEntries(
  FAMILIES.flatMap((f) => Object.entries(f.endpoints).map(([name, d]) => [name, { ...d, family: f.id } satisfies EndpointDescriptor])),
) as Record<Endpoint, EndpointDescriptor>;

/** The family `id`. */
export function familyById(id: FamilyId): SharedFamily {
  return FAMILIES.find((f) => f.id === id)!;
}

/** The descriptor of `endpoint`; an unknown name (a newer database) reads as a plain record. */
export function endpointInfo(endpoint: Endpoint): EndpointDescriptor | null {
  return (ENDPOINT_DESCRIPTORS as Partial<Record<string, EndpointDescriptor>>)[endpoint] ?? null;
}

/** What History calls `endpoint` (its own name when this build does not know it). */
export function endpointLabel(endpoint: Endpoint): string {
  return endpointInfo(endpoint)?.label ?? endpoint;
}

/**
 * The family a run belongs to: its descriptor's, or for an endpoint this build does not describe
 * (a newer database), the family its name starts with (`images.variations` → images); else null.
 */
export function familyOfEndpoint(endpoint: string): FamilyId | null {
  const described = endpointInfo(endpoint as Endpoint);
  if (described) return described.family;
  const prefix = endpoint.split('.')[0];
  return FAMILIES.find((f) => f.id === prefix)?.id ?? null;
}

/** How History lays out a run of `endpoint`: its descriptor's shape, else its family's, else text. */
export function entryShapeOf(endpoint: string): EntryShape {
  const described = endpointInfo(endpoint as Endpoint);
  if (described) return described.entry;
  const family = familyOfEndpoint(endpoint);
  return family ? familyById(family).entry : 'text';
}

function pathMatches(pattern: string, path: string): boolean {
  const a = pattern.split('/').slice(1);
  const b = path.split('/');
  if (b.length < a.length) return false;
  // The service may sit under a prefix (`https://host/api/v1/...`): compare the tail.
  const tail = b.slice(b.length - a.length);
  return a.every((seg, i) => (seg === '{id}' ? tail[i] !== '' && tail[i] !== 'compact' : seg === tail[i]));
}

/** The endpoint a request went to, from its method and URL path; null when none matches. */
export function endpointOfRequest(method: string, path: string): Endpoint | null {
  const verb = method.toUpperCase();
  let best: { endpoint: Endpoint; length: number } | null = null;
  for (const [endpoint, d] of Object.entries(ENDPOINT_DESCRIPTORS) as Array<[Endpoint, EndpointDescriptor]>) {
    if (d.method !== verb || !pathMatches(d.path, path)) continue;
    // Literal paths beat `{id}` patterns of the same length (`/responses/compact`).
    const length = d.path.length + (d.path.includes('{id}') ? 0 : 1000);
    if (!best || length > best.length) best = { endpoint, length };
  }
  return best?.endpoint ?? null;
}

/** The app's own views in the nav (not a family's): they interleave with the families' by `order`. */
const APP_VIEWS = [
  { route: '/compare', label: 'Compare', icon: 'compare', order: 50 },
  { route: '/gallery', label: 'Gallery', icon: 'gallery', order: 80 },
  { route: '/history', label: 'History', icon: 'history', order: 90 },
] as const satisfies readonly NavEntry[];

type NavOf<F> = F extends { nav: infer N } ? (N extends NavEntry ? N : never) : never;

/** The nav, top to bottom: the families' views and the app's own, by their `order`. */
export const NAV_ENTRIES = [...FAMILIES.flatMap((f): NavEntry[] => (f.nav ? [f.nav] : [])), ...APP_VIEWS].sort((a, b) => a.order - b.order) as ReadonlyArray<
  NavOf<Families> | (typeof APP_VIEWS)[number]
>;

/** The icons the nav draws, from the families' nav entries and the app's own views. */
export type NavIconName = (typeof NAV_ENTRIES)[number]['icon'];

/** A route the nav links to. */
export type NavRoute = (typeof NAV_ENTRIES)[number]['route'];

/** The app's own views (the renderer lists their views beside the families'). */
export const APP_VIEW_ROUTES = APP_VIEWS.map((v) => v.route);
