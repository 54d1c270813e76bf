/**
 * What a family declares in shared/ (see README.md): its id, its place in the nav, its recorded
 * endpoints (each with how History reads it and how its code is exported). shared/families/index.ts
 * lists the families; everything else (the endpoint list, labels, nav, History shapes, export
 * dispatch) is derived from that list.
 */
import type { CapturedRequest } from '../contract/runs';
import type { Family } from '../contract/define';
// FamilyId and NavIconName are derived from the lists in index.ts (a type-only cycle): adding a
// family never edits a union here.
import type { FamilyId } from './index';

/** The playgrounds a recorded run can be re-opened in ("Open in playground"). */
export type PlaygroundId = 'chat' | 'responses' | 'messages' | 'legacy' | 'images';

/** The text playgrounds: a recorded run can also be sent again from History ("Run again"). */
export type TextPlaygroundId = Exclude<PlaygroundId, 'images'>;


/** How History shows one run: the text run layout (sent turns, output), an upload's file record, the media it made, or a live session (its tracks, marks and timeline: `history.session`/`timeline`). */
export type EntryShape = 'text' | 'upload' | 'media' | 'session';

/** How the request body of a run is read into turns (prompt text, History's "what was sent"). */
export type InputShape = 'chat' | 'responses' | 'messages' | 'prompt' | 'none';

/** How the recorded answer of a run is read into text choices. */
export type OutputShape = 'chat' | 'responses' | 'messages' | 'completions' | 'complete' | 'none';

/**
 * The code-export kinds the text exporters (shared/codegen) write, each with its readers; an
 * endpoint with an exporter of its own names any kind it likes.
 */
export type TextCodeKind =
  | 'chat'
  | 'responses'
  | 'responses-compact'
  | 'responses-get'
  | 'responses-delete'
  | 'messages'
  | 'completions'
  | 'complete';

/** The code-export kind of an endpoint: a text kind, or a family exporter's own name. */
export type CodeKind = TextCodeKind | (string & {});

export type SdkFamily = 'openai' | 'anthropic';

/** The languages of code export (the inspector's tabs). */
export const EXPORT_LANGS = ['curl', 'python', 'python-sdk', 'typescript', 'typescript-sdk'] as const;
export type ExportLang = (typeof EXPORT_LANGS)[number];

/** What every exporter takes besides the request (shared/codegen/request-parts.ts CodegenOptions). */
export interface ExporterOptions {
  apiKeyEnv?: string;
  baseUrl?: string;
  shownApiKey?: string;
}

export type ExportResult = { code: string } | { unsupported: string };

/**
 * A family's own code export, per language. Endpoints without one are exported by the text
 * exporters (shared/codegen), which read the answer by `code.kind`.
 */
export type CodeExporter = Record<ExportLang, (request: CapturedRequest, opts: ExporterOptions) => ExportResult>;

/**
 * A recorded endpoint as its family writes it (the list adds `family`: see EndpointDescriptor).
 * It names no FamilyId, so a family's module can be checked against it while FamilyId is still
 * being derived from the list of those modules.
 */
export interface OwnEndpoint {
  /** What History calls a run of this endpoint. */
  readonly label: string;
  /** How its History entry is laid out. */
  readonly entry: EntryShape;
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** `websocket`: the path is a WebSocket (its handshake is the GET); absent: plain HTTP. */
  readonly transport?: 'websocket';
  /** Wire path; `{id}` stands for one path segment. */
  readonly path: string;
  readonly input: InputShape;
  readonly output: OutputShape;
  /** Where "Open in playground" goes, or null when the run is not a prompt to send again. */
  readonly rerun: PlaygroundId | null;
  /** Which request shape carries a structured-output schema to check the reply against. */
  readonly structured: 'chat' | 'responses' | null;
  /** Whether the entry shows the Messages event timeline. */
  readonly eventTimeline: boolean;
  /** How its code is exported. */
  readonly code: {
    readonly kind: CodeKind;
    /** The official SDK with a method for it, or null (plain HTTP only). */
    readonly sdk: SdkFamily | null;
    /** `client.<method>(...)` in both SDKs' languages. */
    readonly sdkMethod: string;
    /** Whether its answers can call tools a generated loop runs. */
    readonly toolLoop: boolean;
    /** The family's own exporter; absent: the text exporters write it. */
    readonly exporter?: CodeExporter;
  };
}

/** A recorded endpoint's descriptor, with the family that declares it (filled in by the list). */
export interface EndpointDescriptor extends OwnEndpoint {
  readonly family: FamilyId;
}

/** A place in the nav. */
export interface NavEntry {
  /** Route path; the renderer's family list gives each its view. */
  readonly route: `/${string}`;
  readonly label: string;
  /** Page title (defaults to the label). */
  readonly title?: string;
  /** Its icon's name (the renderer's family list has one drawing per name; see NavIconName). */
  readonly icon: string;
  /** Position, top to bottom (families and the app's own views interleave). */
  readonly order: number;
}

/** One family's shared module. */
/** A family's part of the contract: the key it sits under and its operations (`family/contract.ts`). */
export interface FamilyContract {
  readonly key: string;
  readonly ops: Family;
}

export interface SharedFamily {
  /** Its id (FamilyId is the union of the listed families' ids). */
  readonly id: string;
  /**
   * Its operations in the contract, under `key` (the page's `api.<key>.*`, main's handlers; legacy's
   * is `completions`): shared/contract/index.ts builds the contract's families from the list.
   */
  readonly contract: FamilyContract;
  /** Its view in the nav (a family may have none of its own). */
  readonly nav: NavEntry | null;
  /**
   * How History lays out a run of this family whose endpoint this build does not describe (a
   * newer database); a described endpoint says it itself.
   */
  readonly entry: EntryShape;
  /** Its recorded endpoints, by the name runs are stored under (`<family>.<what>` or a bare name). */
  readonly endpoints: Readonly<Record<string, OwnEndpoint>>;
}
