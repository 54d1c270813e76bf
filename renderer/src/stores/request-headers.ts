/**
 * Extra request headers per text playground (Chat, Responses, Messages, the legacy completions),
 * as the user types them: rows of name and value, each row's problem (an app-owned name, a line
 * break...), and the headers to send. Kept apart from each form so every playground gets the
 * same editor and the same rules (shared/request-headers.ts).
 */
import { defineStore } from 'pinia';
import { ref } from 'vue';
import type { PlaygroundId } from '@shared/families';
import { headerProblem } from '@shared/request-headers';

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
    const problem = headerProblem(name, row.value) ?? (seen.has(name.toLowerCase()) ? `${name} is given twice` : null);
    seen.add(name.toLowerCase());
    return problem;
  });
}

export const useRequestHeadersStore = defineStore('request-headers', () => {
  const rows = ref<Record<PlaygroundId, HeaderRow[]>>({ chat: [], responses: [], messages: [], legacy: [] });

  function add(playground: PlaygroundId): void {
    rows.value[playground].push({ name: '', value: '' });
  }

  function remove(playground: PlaygroundId, index: number): void {
    rows.value[playground].splice(index, 1);
  }

  /** Why Send is blocked by the headers, naming the first bad row, or null. */
  function blockedReason(playground: PlaygroundId): string | null {
    const problems = rowProblems(rows.value[playground]);
    const at = problems.findIndex((p) => p !== null);
    return at < 0 ? null : `header ${at + 1}: ${problems[at]}`;
  }

  /** The headers to send (names trimmed, blank rows left out), or undefined when there are none. */
  function headersFor(playground: PlaygroundId): Record<string, string> | undefined {
    const list = rows.value[playground].filter((row) => !isBlank(row));
    return list.length > 0 ? Object.fromEntries(list.map((row) => [row.name.trim(), row.value])) : undefined;
  }

  /** `{ headers }` to spread into a send input, or nothing when there are none. */
  function sendPart(playground: PlaygroundId): { headers?: Record<string, string> } {
    const headers = headersFor(playground);
    return headers ? { headers } : {};
  }

  return { rows, add, remove, blockedReason, headersFor, sendPart };
});
