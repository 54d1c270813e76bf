/**
 * The tools editor's rows: a ToolSpec as the user is typing it (parameters still as text, which
 * may not parse yet), and the translations both ways. Kept apart from the component so the rules
 * (which messages block sending, how a copy is named) are plain functions.
 */
import { LIMITS } from '@shared/limits';
import { readSchemaText } from '@shared/json-schema/schema-text';
import { validateToolSpecs } from '@shared/tools/validate-specs';
import type { ToolChoiceSpec, ToolSpec } from '@shared/tools/tool-spec';

export interface ToolRow {
  key: number;
  name: string;
  description: string;
  paramsText: string;
  savedReply: string;
  strict: boolean;
}

/** The spec a row stands for; unparseable parameters become `{}` (and an error elsewhere). */
export function specFromRow(row: ToolRow): ToolSpec {
  const spec: ToolSpec = { name: row.name.trim(), description: row.description, parameters: readSchemaText(row.paramsText).schema ?? {} };
  if (row.savedReply) spec.savedReply = row.savedReply;
  if (row.strict) spec.strict = true;
  return spec;
}

export function rowFromSpec(spec: ToolSpec, key: number): ToolRow {
  return {
    key,
    name: spec.name,
    description: spec.description,
    paramsText: JSON.stringify(spec.parameters, null, 2),
    savedReply: spec.savedReply ?? '',
    strict: spec.strict === true,
  };
}

/** A name not yet used: `base`, else `base_2`, `base_3`... (trimmed to 64 characters). */
export function freeName(base: string, taken: readonly string[]): string {
  const stem = base.slice(0, 58) || 'tool';
  if (!taken.includes(stem)) return stem;
  for (let n = 2; ; n++) if (!taken.includes(`${stem}_${n}`)) return `${stem}_${n}`;
}

export interface RowErrors {
  /** Per row key: messages for the name, description and parameters fields. */
  byRow: Map<number, { name: string[]; description: string[]; parameters: string[] }>;
  /** Everything, one sentence each, in order: what blocks sending. */
  all: string[];
}

/** All problems of the rows and the choice; `all` empty means the set can be sent. */
export function rowErrors(rows: readonly ToolRow[], choice: ToolChoiceSpec): RowErrors {
  const byRow: RowErrors['byRow'] = new Map(rows.map((r) => [r.key, { name: [], description: [], parameters: [] }]));
  const all: string[] = [];
  const specs = rows.map(specFromRow);
  for (const p of validateToolSpecs(specs)) {
    // Parameters are reported from the text below (with JSON positions), not from the parsed copy.
    if (p.field === 'parameters') continue;
    if (p.index >= 0) byRow.get(rows[p.index]!.key)![p.field as 'name' | 'description'].push(p.message);
    all.push(p.message);
  }
  rows.forEach((row, i) => {
    const label = row.name.trim() ? `"${row.name.trim()}"` : `Tool ${i + 1}`;
    for (const problem of readSchemaText(row.paramsText, { requireObject: true, emptyMessage: 'Write the parameters schema.' }).problems) {
      byRow.get(row.key)!.parameters.push(problem);
      all.push(`${label} parameters: ${problem}`);
    }
  });
  if (typeof choice === 'object' && !specs.some((s) => s.name === choice.name)) {
    all.push(`Tool choice names "${choice.name}", which is not in the tool list.`);
  }
  return { byRow, all };
}

/** "3 / 128". */
export function countLabel(n: number): string {
  return `${n} / ${LIMITS.tools.max}`;
}
