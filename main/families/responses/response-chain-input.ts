/**
 * Rebuilds, from what the app recorded, the input a compaction of a Responses chain needs: walking
 * from the root (or the latest compaction) to the chosen response, each response's own input
 * (a string becomes a user message; items verbatim except reasoning) followed by its output
 * (assistant text as a message, function calls verbatim). A compaction contributes its item, once.
 */
import type { DroppedMessage, ResponseNode } from '../../../shared/families/responses/contract';
import type { RunRecord } from '../../../shared/contract/runs';
import { isObject } from '../../../shared/is-object';

type Obj = Record<string, unknown>;

/** Characters kept of each dropped message's text. */
export const DROPPED_PREVIEW_CHARS = 120;

/**
 * The nodes whose turns make up the chain ending at `lineage[0]` (lineage: the node first, root
 * last), in chain order; everything before a compaction is already folded into it.
 */
export function chainSegment(lineage: readonly ResponseNode[]): ResponseNode[] {
  const cut = lineage.findIndex((n) => n.kind === 'compaction');
  return (cut === -1 ? [...lineage] : lineage.slice(0, cut + 1)).reverse();
}

/** The compact `input` for a chain segment; `runOf` reads a node's recorded run. */
export function chainInput(segment: readonly ResponseNode[], runOf: (id: string) => RunRecord | null): Obj[] {
  const items: Obj[] = [];
  const compactions = new Set<string>();
  const addCompaction = (item: Obj): void => {
    const id = typeof item.id === 'string' ? item.id : '';
    if (compactions.has(id)) return;
    compactions.add(id);
    items.push(item);
  };
  for (const node of segment) {
    if (node.kind === 'compaction') {
      if (node.compactionItem) addCompaction(node.compactionItem);
      continue;
    }
    const run = node.runId ? runOf(node.runId) : null;
    if (!run) continue;
    const body = isObject(run.request.body) ? run.request.body : {};
    if (run.endpoint === 'responses') {
      if (typeof body.input === 'string') items.push({ role: 'user', content: body.input });
      else if (Array.isArray(body.input)) {
        for (const item of body.input) {
          if (!isObject(item) || item.type === 'reasoning') continue;
          if (item.type === 'compaction') addCompaction(item);
          else items.push(item);
        }
      }
    }
    items.push(...outputItems(run.output));
  }
  return items;
}

function outputItems(output: unknown): Obj[] {
  if (!isObject(output) || !Array.isArray(output.output)) return [];
  const out: Obj[] = [];
  for (const item of output.output) {
    if (!isObject(item)) continue;
    if (item.type === 'message') {
      const text = (Array.isArray(item.content) ? item.content : [])
        .map((p: unknown) => (isObject(p) ? (typeof p.text === 'string' ? p.text : typeof p.refusal === 'string' ? p.refusal : '') : ''))
        .join('');
      out.push({ role: 'assistant', content: text });
    } else if (item.type === 'function_call' || item.type === 'function_call_output') {
      out.push(item);
    }
  }
  return out;
}

/** Role and short text of the first `count` input items: what a compaction dropped. */
export function droppedMessages(input: readonly Obj[], count: number): DroppedMessage[] {
  return input.slice(0, Math.max(0, count)).map((item) => {
    const role = typeof item.role === 'string' ? item.role : String(item.type ?? 'item');
    return { role, preview: clip(itemText(item)) };
  });
}

function itemText(item: Obj): string {
  if (typeof item.content === 'string') return item.content;
  if (Array.isArray(item.content)) return item.content.map((p: unknown) => (isObject(p) && typeof p.text === 'string' ? p.text : '')).join(' ');
  if (item.type === 'function_call') return `${String(item.name)}(${String(item.arguments ?? '')})`;
  if (item.type === 'function_call_output') return String(item.output ?? '');
  if (item.type === 'compaction') return 'earlier compacted context';
  return '';
}

function clip(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= DROPPED_PREVIEW_CHARS ? line : `${line.slice(0, DROPPED_PREVIEW_CHARS - 1).trimEnd()}…`;
}
