/**
 * Extra request headers per playground (Chat, Responses, Messages, the legacy completions, Videos),
 * as the user types them: rows of name and value, each row's problem (an app-owned name, a line
 * break...), and the headers to send. Kept apart from each form so every playground gets the
 * same editor and the same rules (shared/request-headers.ts).
 *
 * The rows are kept as a draft of their own (`request-headers`), so a reload or restart keeps
 * them; a playground's New leaves them. Values of secret-looking headers are never written to
 * the draft: such a row comes back with its name and an empty value, which blocks Send until
 * the value is typed again.
 */
import { defineStore } from 'pinia';
import { ref } from 'vue';
import type { TextPlaygroundId } from '@shared/families';
import type { LimitViolation } from '@shared/limits';
import { headerProblem, isSecretHeader } from '@shared/request-headers';
import { isObject } from '@shared/is-object';
import { useDraft } from '../composables/use-draft';

/** One row of the editor; an empty row (no name, no value) is ignored. */
export interface HeaderRow {
  name: string;
  value: string;
}

const isBlank = (row: HeaderRow): boolean => row.name.trim() === '' && row.value === '';

/** Each row's problem (null when it can be sent or is blank), a repeated name included. */
export function rowProblems(rows: readonly HeaderRow[]): (string | null)[] {
  const seen = new Set<string>();
  return rows.map((row) => {
    if (isBlank(row)) return null;
    const name = row.name.trim();
    const problem =
      headerProblem(name, row.value) ??
      (seen.has(name.toLowerCase()) ? `${name} is given twice` : null) ??
      (row.value === '' && isSecretHeader(name) ? `type the value of ${name} (secret values are not kept between sessions)` : null);
    seen.add(name.toLowerCase());
    return problem;
  });
}

/** Where headers are typed: the text playgrounds and Videos (whose jobs carry them to every create). */
export type HeadersScope = TextPlaygroundId | 'videos';

type Rows = Record<HeadersScope, HeaderRow[]>;
const emptyRows = (): Rows => ({ chat: [], responses: [], messages: [], legacy: [], videos: [] });
const PLAYGROUND_IDS = Object.keys(emptyRows()) as HeadersScope[];

/** The rows as drafted: secret-looking values left out. */
function draftOf(rows: Rows): Rows {
  const out = emptyRows();
  for (const id of PLAYGROUND_IDS) out[id] = rows[id].map((row) => ({ name: row.name, value: isSecretHeader(row.name) ? '' : row.value }));
  return out;
}

/** Rows read back from a draft (an older build's, perhaps): only well-formed rows of known playgrounds. */
function rowsFrom(saved: Record<string, unknown> | null): Rows {
  const out = emptyRows();
  const kept = saved?.rows;
  if (!isObject(kept)) return out;
  for (const id of PLAYGROUND_IDS) {
    const list = kept[id];
    if (!Array.isArray(list)) continue;
    out[id] = list.filter((r): r is HeaderRow => isObject(r) && typeof r.name === 'string' && typeof r.value === 'string').map((r) => ({ name: r.name, value: r.value }));
  }
  return out;
}

export const useRequestHeadersStore = defineStore('request-headers', () => {
  const rows = ref<Rows>(emptyRows());
  useDraft('request-headers', () => ({ rows: draftOf(rows.value) }), (saved) => (rows.value = rowsFrom(saved)));

  function add(playground: HeadersScope): void {
    rows.value[playground].push({ name: '', value: '' });
  }

  function remove(playground: HeadersScope, index: number): void {
    rows.value[playground].splice(index, 1);
  }

  /** Each bad row's problem, naming the row: one of the sources of its playground's form violations. */
  function violations(playground: HeadersScope): LimitViolation[] {
    return rowProblems(rows.value[playground]).flatMap((problem, i) => (problem ? [{ field: 'headers', message: `header ${i + 1}: ${problem}` }] : []));
  }

  /** The headers to send (names trimmed, blank rows left out), or undefined when there are none. */
  function headersFor(playground: HeadersScope): Record<string, string> | undefined {
    const list = rows.value[playground].filter((row) => !isBlank(row));
    return list.length > 0 ? Object.fromEntries(list.map((row) => [row.name.trim(), row.value])) : undefined;
  }

  /** `{ headers }` to spread into a send input, or nothing when there are none. */
  function sendPart(playground: HeadersScope): { headers?: Record<string, string> } {
    const headers = headersFor(playground);
    return headers ? { headers } : {};
  }

  return { rows, add, remove, violations, headersFor, sendPart };
});
