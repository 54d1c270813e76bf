/**
 * The legacy interfaces: `POST /v1/completions` (streamed or plain; a choice per prompt and `n`)
 * and `POST /v1/complete` (plain only). Both recorded like every run and reported through the
 * chat chunk kinds. `/v1/complete` with `stream: true` is sent as asked, so the run records the
 * service's own refusal rather than a guess of it.
 */
import { COMPLETE_PATH, COMPLETIONS_PATH, createComplete, createCompletion, streamCompletion } from '../api/completions';
import { CompletionsAssembler } from '../api/completions-assembler';
import type { RunRecord } from '../../shared/contract/runs';
import { validateCompleteRequest, validateCompletionsRequest } from '../../shared/validate/completions';
import type { CompleteRequest, CompletionsRequest } from '../../shared/wire/completions';
import type { ConnectionsService } from './connections-service';
import { TextRun, type TextRunContext, type TextServiceDeps } from './text-run';

export interface CompletionsServiceOptions extends TextServiceDeps {
  connections: ConnectionsService;
}

type Obj = Record<string, unknown>;
type SendInput = { connectionId?: string; request: Obj; headers?: Record<string, string> };

export class CompletionsService {
  constructor(private readonly options: CompletionsServiceOptions) {}

  /** POST /v1/completions. */
  async send(input: SendInput, ctx: TextRunContext): Promise<RunRecord> {
    const connection = this.options.connections.resolve(input.connectionId);
    const stream = input.request.stream === true;
    const { stream_options: streamOptions, ...rest } = input.request;
    // What is recorded is what is sent: stream_options only travels with a stream.
    const body = (stream ? { ...rest, stream, ...(streamOptions !== undefined ? { stream_options: streamOptions } : {}) } : { ...rest, stream }) as unknown as CompletionsRequest;
    const headers = input.headers ?? {};
    const request = connection.client.describe({ method: 'POST', path: COMPLETIONS_PATH, body, headers }, stream);
    const run = TextRun.begin(this.options, { connection, endpoint: 'completions', model: String(body.model ?? ''), request, ctx });
    const violations = validateCompletionsRequest(body);
    if (violations.length > 0) return run.reject(violations);
    const opts = { signal: ctx.signal, headers, onRetry: run.onRetry };
    if (!stream) return run.finishPlain(await createCompletion(connection.client, body, opts));

    const assembler = new CompletionsAssembler();
    const outcome = await streamCompletion(
      connection.client,
      body,
      {
        onOpen: run.onOpen,
        onRawEvent: run.onRawEvent,
        onChunk: (chunk) => {
          assembler.push(chunk);
          for (const c of Array.isArray(chunk.choices) ? chunk.choices : []) {
            run.delta({
              type: 'delta',
              choice: typeof c.index === 'number' ? c.index : 0,
              ...(c.text ? { content: c.text } : {}),
              ...(c.finish_reason ? { finishReason: c.finish_reason } : {}),
            });
          }
          if (chunk.usage) run.usage(chunk.usage);
          run.checkpoint(() => assembler.result());
        },
      },
      opts,
    );
    const output = assembler.chunks > 0 ? assembler.result() : null;
    return run.finishStream(outcome, output, assembler.usage());
  }

  /** POST /v1/complete (plain; a `stream` flag is passed on for the service to answer). */
  async complete(input: SendInput, ctx: TextRunContext): Promise<RunRecord> {
    const connection = this.options.connections.resolve(input.connectionId);
    const body = input.request as unknown as CompleteRequest;
    const headers = input.headers ?? {};
    const request = connection.client.describe({ method: 'POST', path: COMPLETE_PATH, body, headers });
    const run = TextRun.begin(this.options, { connection, endpoint: 'complete', model: String(body.model ?? ''), request, ctx });
    const violations = validateCompleteRequest(body).filter((v) => v.field !== 'stream');
    if (violations.length > 0) return run.reject(violations);
    return run.finishPlain(await createComplete(connection.client, body, { signal: ctx.signal, headers, onRetry: run.onRetry }));
  }
}
