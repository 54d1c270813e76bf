/**
 * One declaration per API family and per recorded endpoint: what the app calls it, the wire
 * method and path, how its recorded request and answer are read, where a re-run goes and how its
 * code is exported. History (list, entry, filters), the nav, code export and the output previews
 * all read these tables instead of switching on endpoint names, so adding a family is a new entry
 * here (a missing one is a compile error: the tables are `Record<Endpoint, …>`).
 */
import type { Endpoint } from './contract/runs';

/** The playgrounds a recorded run can be re-opened in. */
export type PlaygroundId = 'chat' | 'responses' | 'messages' | 'legacy';

/** Families of the service a run can belong to (a playground's, or one with a view of its own). */
export type FamilyId = PlaygroundId | 'files' | 'videos' | 'images';

/**
 * How History shows one run: the text run layout (sent turns, output), an upload's file record,
 * media made, or a live session (its tracks, marks and timeline: `history.session`/`timeline`).
 */
export type EntryShape = 'text' | 'upload' | 'media' | 'session';

/** How the request body of a run is read into turns (prompt text, History's "what was sent"). */
export type InputShape = 'chat' | 'responses' | 'messages' | 'prompt' | 'none';

/** How the recorded answer of a run is read into text choices. */
export type OutputShape = 'chat' | 'responses' | 'messages' | 'completions' | 'complete' | 'none';

/** The code-export kind of an endpoint (codegen keeps its readers per kind). */
export type CodeKind =
  | 'chat'
  | 'responses'
  | 'responses-compact'
  | 'responses-get'
  | 'responses-delete'
  | 'messages'
  | 'completions'
  | 'complete'
  | 'video'
  | 'image-generate'
  | 'image-edit';

export type SdkFamily = 'openai' | 'anthropic';

export interface EndpointDescriptor {
  /** What History calls a run of this endpoint. */
  readonly label: string;
  /** The family it belongs to (groups related endpoints, e.g. a chain's retrieve/delete). */
  readonly family: FamilyId;
  /** How its History entry is laid out. */
  readonly entry: EntryShape;
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Wire path; `{id}` stands for one path segment. */
  readonly path: string;
  readonly input: InputShape;
  readonly output: OutputShape;
  /** Where "Re-run in playground" goes, or null when the run is not a prompt to send again. */
  readonly rerun: PlaygroundId | null;
  /** Which request shape carries a structured-output schema to check the reply against. */
  readonly structured: 'chat' | 'responses' | null;
  /** Whether the entry shows the Messages event timeline. */
  readonly eventTimeline: boolean;
  /** How its code is exported by the text exporters; null when it has its own (uploads). */
  readonly code: {
    readonly kind: CodeKind;
    /** The official SDK with a method for it, or null (plain HTTP only). */
    readonly sdk: SdkFamily | null;
    /** `client.<method>(...)` in both SDKs' languages. */
    readonly sdkMethod: string;
    /** Whether its answers can call tools a generated loop runs. */
    readonly toolLoop: boolean;
  } | null;
}

const text = { structured: null, eventTimeline: false, entry: 'text' } as const;

/** Every recorded endpoint. */
export const ENDPOINT_DESCRIPTORS: Record<Endpoint, EndpointDescriptor> = {
  'chat.completions': {
    ...text,
    label: 'Chat',
    family: 'chat',
    method: 'POST',
    path: '/v1/chat/completions',
    input: 'chat',
    output: 'chat',
    rerun: 'chat',
    structured: 'chat',
    code: { kind: 'chat', sdk: 'openai', sdkMethod: 'chat.completions.create', toolLoop: true },
  },
  responses: {
    ...text,
    label: 'Responses',
    family: 'responses',
    method: 'POST',
    path: '/v1/responses',
    input: 'responses',
    output: 'responses',
    rerun: 'responses',
    structured: 'responses',
    code: { kind: 'responses', sdk: 'openai', sdkMethod: 'responses.create', toolLoop: true },
  },
  'responses.compact': {
    ...text,
    label: 'Responses: compact',
    family: 'responses',
    method: 'POST',
    path: '/v1/responses/compact',
    input: 'responses',
    output: 'none',
    rerun: null,
    code: { kind: 'responses-compact', sdk: 'openai', sdkMethod: 'responses.compact', toolLoop: false },
  },
  'responses.retrieve': {
    ...text,
    label: 'Responses: retrieve',
    family: 'responses',
    method: 'GET',
    path: '/v1/responses/{id}',
    input: 'none',
    output: 'responses',
    rerun: null,
    code: { kind: 'responses-get', sdk: 'openai', sdkMethod: 'responses.retrieve', toolLoop: false },
  },
  'responses.delete': {
    ...text,
    label: 'Responses: delete',
    family: 'responses',
    method: 'DELETE',
    path: '/v1/responses/{id}',
    input: 'none',
    output: 'none',
    rerun: null,
    code: { kind: 'responses-delete', sdk: 'openai', sdkMethod: 'responses.delete', toolLoop: false },
  },
  messages: {
    ...text,
    label: 'Messages',
    family: 'messages',
    method: 'POST',
    path: '/v1/messages',
    input: 'messages',
    output: 'messages',
    rerun: 'messages',
    eventTimeline: true,
    code: { kind: 'messages', sdk: 'anthropic', sdkMethod: 'messages.create', toolLoop: true },
  },
  completions: {
    ...text,
    label: 'Completions (legacy)',
    family: 'legacy',
    method: 'POST',
    path: '/v1/completions',
    input: 'prompt',
    output: 'completions',
    rerun: 'legacy',
    code: { kind: 'completions', sdk: 'openai', sdkMethod: 'completions.create', toolLoop: false },
  },
  complete: {
    ...text,
    label: 'Complete (legacy)',
    family: 'legacy',
    method: 'POST',
    path: '/v1/complete',
    input: 'prompt',
    output: 'complete',
    rerun: 'legacy',
    // The Anthropic SDK no longer has a method for the legacy endpoint: its generic post() does.
    code: { kind: 'complete', sdk: 'anthropic', sdkMethod: 'post', toolLoop: false },
  },
  'files.upload': {
    label: 'Files · upload',
    family: 'files',
    entry: 'upload',
    method: 'POST',
    path: '/v1/files',
    input: 'none',
    output: 'none',
    rerun: null,
    structured: null,
    eventTimeline: false,
    // Multipart from a file on disk: shared/codegen/upload.ts writes its snippets.
    code: null,
  },
  ...videoEndpoints(),
  ...imageEndpoints(),
};

/**
 * The three video creates: JSON bodies, recorded with the job's final result; exported as plain
 * HTTP with the polling loop (the openai SDK's `videos` resource is another API: multipart, other
 * paths and shapes).
 */
function videoEndpoints(): Record<'videos.generations' | 'videos.edits' | 'videos.extensions', EndpointDescriptor> {
  const video = (label: string, path: string): EndpointDescriptor => ({
    label,
    family: 'videos',
    entry: 'media',
    method: 'POST',
    path,
    input: 'none',
    output: 'none',
    rerun: null,
    structured: null,
    eventTimeline: false,
    code: { kind: 'video', sdk: null, sdkMethod: 'post', toolLoop: false },
  });
  return {
    'videos.generations': video('Video · generate', '/v1/videos/generations'),
    'videos.edits': video('Video · edit', '/v1/videos/edits'),
    'videos.extensions': video('Video · extend', '/v1/videos/extensions'),
  };
}

/**
 * Image generation and editing: JSON bodies whose `prompt` is the prompt; History shows the
 * images the run kept (its media entry). Exported by shared/codegen/images.ts (curl, plain HTTP,
 * and the openai SDK). No re-run target yet: the Images playground has no PlaygroundId (adding
 * one would need a loader in every Record<PlaygroundId, ...> of the renderer).
 */
function imageEndpoints(): Record<'images.generations' | 'images.edits', EndpointDescriptor> {
  const image = (label: string, path: string, code: NonNullable<EndpointDescriptor['code']>): EndpointDescriptor => ({
    label,
    family: 'images',
    entry: 'media',
    method: 'POST',
    path,
    input: 'prompt',
    output: 'none',
    rerun: null,
    structured: null,
    eventTimeline: false,
    code,
  });
  return {
    'images.generations': image('Images · generate', '/v1/images/generations', { kind: 'image-generate', sdk: 'openai', sdkMethod: 'images.generate', toolLoop: false }),
    'images.edits': image('Images · edit', '/v1/images/edits', { kind: 'image-edit', sdk: 'openai', sdkMethod: 'images.edit', toolLoop: false }),
  };
}

/** The descriptor of `endpoint`; an unknown name (a newer database) reads as a plain record. */
export function endpointInfo(endpoint: Endpoint): EndpointDescriptor | null {
  return ENDPOINT_DESCRIPTORS[endpoint] ?? null;
}

/** What History calls `endpoint` (its own name when this build does not know it). */
export function endpointLabel(endpoint: Endpoint): string {
  return endpointInfo(endpoint)?.label ?? endpoint;
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

/** The icons the nav draws (renderer/src/components/NavIcon.vue has one drawing per name). */
export type NavIconName = 'chat' | 'responses' | 'messages' | 'legacy' | 'compare' | 'models' | 'files' | 'history' | 'images' | 'videos' | 'gallery';

/** A place in the nav: the playgrounds and the other views, in order. */
export interface NavEntry {
  /** Route path; also the key of the renderer's lazy view table. */
  readonly route: `/${string}`;
  readonly label: string;
  /** Page title (defaults to the label). */
  readonly title?: string;
  readonly icon: NavIconName;
}

/** The nav, top to bottom. The renderer maps each route to its lazy view. */
export const NAV_ENTRIES = [
  { route: '/chat', label: 'Chat', icon: 'chat' },
  { route: '/responses', label: 'Responses', icon: 'responses' },
  { route: '/messages', label: 'Messages', icon: 'messages' },
  { route: '/legacy', label: 'Legacy', title: 'Legacy completions', icon: 'legacy' },
  { route: '/compare', label: 'Compare', icon: 'compare' },
  { route: '/images', label: 'Images', icon: 'images' },
  { route: '/videos', label: 'Videos', title: 'Video jobs', icon: 'videos' },
  { route: '/gallery', label: 'Gallery', icon: 'gallery' },
  { route: '/history', label: 'History', icon: 'history' },
  { route: '/files', label: 'Files', icon: 'files' },
  { route: '/models', label: 'Models', icon: 'models' },
] as const satisfies readonly NavEntry[];

/** A route the nav links to. */
export type NavRoute = (typeof NAV_ENTRIES)[number]['route'];
