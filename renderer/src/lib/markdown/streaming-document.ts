// One message's markdown as it streams: completed blocks are rendered once and never again, only
// the unfinished tail is re-rendered. Owns the block splitter and the document's link references.
import { BlockSplitter } from './block-splitter';
import { renderBlock, type BlockRenderer, type RenderEnv } from './render-block';

/** A completed block's HTML. `key` is stable for the life of the text, so views can keep its DOM. */
export interface RenderedBlock {
  readonly key: string;
  readonly index: number;
  readonly html: string;
}

/** What changed since the previous call. */
export interface DocumentChange {
  /** True when the text was replaced rather than extended: drop every block seen before. */
  reset: boolean;
  /** Blocks completed by this call, in order. */
  added: RenderedBlock[];
  /** Blocks re-rendered at the end because a later reference definition resolves their links (rare). */
  replaced: RenderedBlock[];
  /** HTML of the unfinished tail; empty once finished. */
  tailHtml: string;
}

/** Options for {@link StreamingDocument}. */
export interface StreamingDocumentOptions {
  /** Renders one block to sanitised HTML; defaults to {@link renderBlock}. */
  render?: BlockRenderer;
}

// How much of the consumed text is compared to tell an append from a replacement: a full compare
// would rescan the whole message on every frame.
const PROBE = 64;

/** Incremental renderer for one streamed markdown text. */
export class StreamingDocument {
  private readonly render: BlockRenderer;
  private splitter = new BlockSplitter();
  private env: RenderEnv = {};
  /** Reference count each block was rendered with, to find blocks a later definition affects. */
  private refsAtRender: number[] = [];
  private consumed = 0;
  private probe = '';
  private finished = false;
  private generation = 0;

  constructor(options: StreamingDocumentOptions = {}) {
    this.render = options.render ?? renderBlock;
  }

  /** Takes the whole text so far (an extension of the previous one while streaming). */
  update(text: string): DocumentChange {
    const reset = this.syncTo(text);
    if (this.finished) return { reset, added: [], replaced: [], tailHtml: '' };
    const added = this.renderNew(this.splitter.append(text.slice(this.consumed)));
    this.consume(text);
    const tail = this.splitter.tail;
    const tailHtml = tail.trim() === '' ? '' : this.render(tail, this.tailEnv());
    return { reset, added, replaced: [], tailHtml };
  }

  /** Takes the final text and finalises the tail; the result equals rendering `text` in one go. */
  finish(text: string): DocumentChange {
    const reset = this.syncTo(text);
    if (this.finished) return { reset, added: [], replaced: [], tailHtml: '' };
    const pending = this.splitter.append(text.slice(this.consumed));
    this.consume(text);
    const added = this.renderNew([...pending, ...this.splitter.finish()]);
    this.finished = true;
    return { reset, added, replaced: this.rerenderForLateReferences(), tailHtml: '' };
  }

  /** Drops all state; the next update starts a new text. */
  dispose(): void {
    this.restart();
  }

  /** Returns true (after restarting) when `text` does not extend what was consumed. */
  private syncTo(text: string): boolean {
    const extendsPrevious =
      text.length >= this.consumed && text.slice(this.consumed - this.probe.length, this.consumed) === this.probe;
    const changedAfterFinish = this.finished && text.length !== this.consumed;
    if (extendsPrevious && !changedAfterFinish) return false;
    this.restart();
    return true;
  }

  private restart(): void {
    this.splitter = new BlockSplitter();
    this.env = {};
    this.refsAtRender = [];
    this.consumed = 0;
    this.probe = '';
    this.finished = false;
    this.generation++;
  }

  private consume(text: string): void {
    this.consumed = text.length;
    this.probe = text.slice(Math.max(0, text.length - PROBE));
  }

  private renderNew(sources: readonly string[]): RenderedBlock[] {
    return sources.map((source) => {
      const index = this.refsAtRender.length;
      const html = this.render(source, this.env);
      this.refsAtRender.push(this.refCount());
      return { key: `${this.generation}-${index}`, index, html };
    });
  }

  private rerenderForLateReferences(): RenderedBlock[] {
    const total = this.refCount();
    const replaced: RenderedBlock[] = [];
    this.splitter.blocks.forEach((source, index) => {
      if (this.refsAtRender[index] >= total || !source.includes('[')) return;
      replaced.push({ key: `${this.generation}-${index}`, index, html: this.render(source, this.env) });
    });
    return replaced;
  }

  private refCount(): number {
    return this.env.references ? Object.keys(this.env.references).length : 0;
  }

  /** The tail is not final: a half-typed definition must not become the document's definition. */
  private tailEnv(): RenderEnv {
    return this.env.references ? { references: { ...this.env.references } } : {};
  }
}
