/**
 * Stored responses, per team (spec "Stored objects"): kept for 30 days after creation on the
 * sandbox clock, then gone; DELETE removes one at once. Each entry keeps the whole conversation
 * it ended (chain inputs and outputs, in order) so a `previous_response_id` continues from it
 * without walking ancestors. Remembers why an id is gone (deleted, expired, never stored) so a
 * 404 can say what happened and what to do.
 */
import type { ChatMessage } from '../../../shared/wire/chat';
import type { ResponseObject } from '../../../shared/wire/responses';
import { list, num, obj, str } from '../state/shape';

const DAY_MS = 86_400_000;
/** Reasons remembered per id are capped so a long-running sandbox does not grow without bound. */
const MAX_TOMBSTONES = 100_000;

export interface StoredResponse {
  team: string;
  response: ResponseObject;
  /** The conversation up to and including this response's output. */
  conversation: ChatMessage[];
  createdMs: number;
}

export type GoneReason = 'deleted' | 'expired' | 'unstored';
export type Lookup = { state: 'found'; entry: StoredResponse } | { state: 'unknown' } | { state: GoneReason };

export class ResponseStore {
  private readonly entries = new Map<string, StoredResponse>();
  private readonly gone = new Map<string, { team: string; reason: GoneReason }>();
  private readonly retentionMs: number;
  /**
   * Called after every change worth saving (the state folder's snapshot); `created` when the
   * change handed the client a new id, which the state folder saves at once.
   */
  onChange: (created?: boolean) => void = () => undefined;

  /** `retentionDays`: the spec's 30 unless a test wants otherwise. */
  constructor(retentionDays = 30) {
    this.retentionMs = retentionDays * DAY_MS;
  }

  /** Keeps a response (store: true). */
  put(entry: StoredResponse): void {
    this.sweep(entry.createdMs);
    this.entries.set(entry.response.id, entry);
    this.onChange(true);
  }

  /** Records that a response was made with store: false, for a helpful 404 later. */
  markUnstored(team: string, id: string): void {
    this.bury(id, team, 'unstored');
  }

  /** The stored response, or why there is none. Other teams' responses are `unknown`. */
  lookup(id: string, team: string, nowMs: number): Lookup {
    const entry = this.entries.get(id);
    if (entry && entry.team === team) {
      if (nowMs - entry.createdMs < this.retentionMs) return { state: 'found', entry };
      this.entries.delete(id);
      this.bury(id, team, 'expired');
      return { state: 'expired' };
    }
    const tomb = this.gone.get(id);
    return tomb && tomb.team === team ? { state: tomb.reason } : { state: 'unknown' };
  }

  /** Deletes a stored response; returns what lookup() said before. */
  delete(id: string, team: string, nowMs: number): Lookup {
    const found = this.lookup(id, team, nowMs);
    if (found.state === 'found') {
      this.entries.delete(id);
      this.bury(id, team, 'deleted');
      this.onChange();
    }
    return found;
  }

  /**
   * The responses still within their retention at `nowMs`, in creation order. Why gone ids are
   * gone is not kept: after a restart they answer 404 "does not exist" rather than "was deleted".
   */
  snapshot(nowMs: number): unknown {
    return { entries: [...this.entries.values()].filter((e) => nowMs - e.createdMs < this.retentionMs) };
  }

  /** Replaces the contents with a snapshot() read back; throws on a malformed one. */
  restore(data: unknown): void {
    const entries = list(obj(data, 'responses snapshot').entries, 'entries').map((v): StoredResponse => {
      const e = obj(v, 'entry');
      const response = obj(e.response, 'response');
      str(response, 'id');
      return {
        team: str(e, 'team'),
        response: response as unknown as ResponseObject,
        conversation: list(e.conversation, 'conversation') as ChatMessage[],
        createdMs: num(e, 'createdMs'),
      };
    });
    this.clear();
    for (const entry of entries) this.entries.set(entry.response.id, entry);
  }

  clear(): void {
    this.entries.clear();
    this.gone.clear();
  }

  private bury(id: string, team: string, reason: GoneReason): void {
    if (this.gone.size >= MAX_TOMBSTONES) this.gone.delete(this.gone.keys().next().value as string);
    this.gone.set(id, { team, reason });
  }

  /** Drops what expired; entries are in creation order, so it stops at the first live one. */
  private sweep(nowMs: number): void {
    for (const [id, entry] of this.entries) {
      if (nowMs - entry.createdMs < this.retentionMs) break;
      this.entries.delete(id);
      this.bury(id, entry.team, 'expired');
    }
  }
}

/** The 404 message for a response id that cannot be used, by reason. */
export function goneMessage(id: string, state: 'unknown' | GoneReason, asPrevious: boolean): string {
  const what = asPrevious ? `previous_response_id ${id}` : `Response ${id}`;
  const fallback = asPrevious ? ' Start a new conversation, or send the earlier turns in input.' : '';
  switch (state) {
    case 'deleted':
      return `${what} was deleted, so it can no longer be ${asPrevious ? 'continued' : 'retrieved'}.${fallback}`;
    case 'expired':
      return `${what} has expired: stored responses are deleted 30 days after creation.${fallback}`;
    case 'unstored':
      return `${what} was created with store: false, so it was not kept and cannot be ${asPrevious ? 'continued' : 'retrieved'}. Leave store unset (true) to keep responses.${fallback}`;
    default:
      return `${what} does not exist for your team. Check the id (responses are stored per team).${fallback}`;
  }
}
