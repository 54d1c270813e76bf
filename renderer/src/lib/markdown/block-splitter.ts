// Splits streamed markdown into top-level blocks (paragraphs, headings, lists, fences, tables,
// blockquotes, rules) as text arrives. A block is complete once the next top-level block has
// begun: CommonMark closes blocks line by line, so nothing appended later can change it. The
// boundaries come from markdown-it's own block parser (the renderer's configuration), run over
// the unfinished tail only, so fences, lists with blank lines, tables and setext headings are
// judged exactly as the final render judges them.
import type MarkdownIt from 'markdown-it';
import type Token from 'markdown-it/lib/token.mjs';
import { markdown } from './create-markdown';

/** Result of splitting a whole text at once. */
export interface SplitResult {
  /** Source of each completed block, in order; `complete.join('') + tail` is the input. */
  complete: string[];
  /** The unfinished last block (and anything after it). */
  tail: string;
}

/** Offsets where each line starts; breaks are \r\n, \r or \n, as markdown-it normalises them. */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 13 && text.charCodeAt(i + 1) === 10) i++;
    if (c === 10 || c === 13) starts.push(i + 1);
  }
  return starts;
}

function lastLineBreakEnd(text: string): number {
  return Math.max(text.lastIndexOf('\n'), text.lastIndexOf('\r')) + 1;
}

const normalise = (text: string): string => text.replace(/\r\n?/g, '\n').replace(/\0/g, '\uFFFD');

/** Could `line` close a fence opened with `marker`? Loose on purpose: a false yes only costs a parse. */
function mayCloseFence(line: string, marker: string): boolean {
  return line.trimStart().startsWith(marker);
}

/**
 * Incremental splitter. `append()` is linear overall in practice: it re-parses only the unfinished
 * tail, only when a line break arrives, and skips even that while the tail is an open code fence
 * that the new lines cannot close.
 */
export class BlockSplitter {
  private buffer = '';
  private readonly done: string[] = [];
  /** Set while the tail is an unterminated top-level fence: its marker and where unchecked lines begin. */
  private openFence: { marker: string; scanFrom: number } | undefined;
  private finished = false;

  constructor(private readonly md: MarkdownIt = markdown()) {}

  /** Completed block sources so far, in order. */
  get blocks(): readonly string[] {
    return this.done;
  }

  /** The unfinished text after the completed blocks. */
  get tail(): string {
    return this.buffer;
  }

  /** Adds streamed text; returns the blocks this delta completed (often none). */
  append(delta: string): string[] {
    if (this.finished) throw new Error('BlockSplitter: append() after finish(); create a new splitter for a new text');
    if (delta === '') return [];
    const from = this.buffer.length;
    this.buffer += delta;
    // A block is only judged complete once a later line exists, so text without a line break changes nothing yet.
    if (!/[\r\n]/.test(delta)) return [];
    if (this.openFence && !this.fenceMayHaveClosed(from)) return [];
    return this.split(false);
  }

  /** Ends the text: the tail becomes final block(s). Returns the blocks this completed. */
  finish(): string[] {
    if (this.finished) return [];
    this.finished = true;
    return this.split(true);
  }

  private fenceMayHaveClosed(from: number): boolean {
    const fence = this.openFence!;
    let start = Math.min(fence.scanFrom, from);
    const text = this.buffer;
    let found = false;
    for (let i = from; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c !== 10 && c !== 13) continue;
      if (!found && mayCloseFence(text.slice(start, i), fence.marker)) found = true;
      start = i + 1;
    }
    fence.scanFrom = start;
    return found;
  }

  private split(final: boolean): string[] {
    const buffer = this.buffer;
    // While streaming only complete lines are judged: a partial line can still change what it is
    // ("2" is a paragraph, "2) item" continues the list above it).
    const raw = final ? buffer : buffer.slice(0, lastLineBreakEnd(buffer));
    const lines = lineStarts(raw);
    const src = normalise(raw);
    const tokens: Token[] = [];
    this.md.block.parse(src, this.md, {}, tokens);
    const top = tokens.filter((t) => t.level === 0 && t.nesting !== -1 && t.map);
    const srcLines = src.split('\n');
    const offset = (line: number): number => (line < lines.length ? lines[line] : raw.length);
    // Lines between two blocks (blank lines, reference definitions, which make no token): blank ones
    // stay with the block before, the rest go with the block after, so the cut is the same however
    // the text arrived.
    const boundary = (i: number): number => {
      let line = top[i].map![1];
      const next = i + 1 < top.length ? top[i + 1].map![0] : srcLines.length;
      while (line < next && /^[ \t]*$/.test(srcLines[line])) line++;
      return offset(line);
    };

    const added: string[] = [];
    const keep = final ? top.length : top.length - 1;
    let from = 0;
    for (let i = 0; i < keep; i++) {
      const to = boundary(i);
      added.push(raw.slice(from, to));
      from = to;
    }
    if (final && from < raw.length) {
      // Trailing reference definitions (no token) form their own block, as they would had they
      // streamed in after the last block was complete; trailing blank lines join the last block.
      const rest = raw.slice(from);
      if (rest.trim() !== '' || added.length === 0) added.push(rest);
      else added[added.length - 1] += rest;
      from = raw.length;
    }
    this.buffer = buffer.slice(from);
    this.done.push(...added);
    this.openFence = final ? undefined : this.unterminatedFence(top[top.length - 1], raw, srcLines, lines, from);
    return added;
  }

  /** If the last top-level block is a fence still open at the end of the text, how to watch for its close. */
  private unterminatedFence(
    last: Token | undefined,
    raw: string,
    srcLines: string[],
    lines: number[],
    tailStart: number,
  ): { marker: string; scanFrom: number } | undefined {
    if (!last || last.type !== 'fence') return undefined;
    const [first, end] = last.map!;
    // markdown-it does not count the empty "line" after a final line break.
    const lineCount = lines[lines.length - 1] === raw.length ? lines.length - 1 : lines.length;
    if (end < lineCount) return undefined;
    const lastLine = srcLines[end - 1] ?? '';
    const closed = end - 1 > first && lastLine.trim().startsWith(last.markup) && /^[`~]+$/.test(lastLine.trim());
    if (closed) return undefined;
    // Every complete line was already judged not to close it; only the partial last line needs watching.
    return { marker: last.markup, scanFrom: lines[lines.length - 1] - tailStart };
  }
}

/** Splits a whole text at once, as if it had streamed in and not yet ended. */
export function splitBlocks(text: string, md?: MarkdownIt): SplitResult {
  const splitter = new BlockSplitter(md);
  splitter.append(text);
  return { complete: [...splitter.blocks], tail: splitter.tail };
}
