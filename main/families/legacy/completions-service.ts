/**
 * The legacy interfaces: `POST /v1/completions` (streamed or plain; a choice per prompt and `n`)
 * and `POST /v1/complete` (plain only). Both recorded like every run and reported through the
 * chat chunk kinds. `/v1/complete` with `stream: true` is sent as asked, so the run records the
 * service's own refusal rather than a guess of it.
 */
import { COMPLETE_PATH, COMPLETIONS_PATH, createComplete, createCompletion, streamCompletion } from '../../api/completions';
import { CompletionsAssembler } from '../../api/completions-assembler';
import type { RunRecord } from '../../../shared/contract/runs';
import { validateCompleteRequest, validateCompletionsRequest } from '../../../shared/validate/completions';
import type { CompleteRequest, CompletionsRequest, TextCompletionChunk } from '../../../shared/wire/completions';
import type { ConnectionsService } from '../../services/connections-service';
import { runTextPost, streamIntoRun, type TextSendInput } from '../../services/text-post';
import type { TextRunContext, TextServiceDeps } from '../../services/text-run';

export interface CompletionsServiceOptions extends TextServiceDeps {
  connections: ConnectionsService;
}


export class CompletionsService {
  constructor(private readonly options: CompletionsServiceOptions) {}

  /** POST /v1/completions. */
  async send(input: TextSendInput, ctx: TextRunContext): Promise<RunRecord> {
    const connection = this.options.connections.resolve(input.connectionId);
    const stream = input.request.stream === true;
    const { stream_options: streamOptions, ...rest } = input.request;
    // What is recorded is what is sent: stream_options only travels with a stream.
    const body = (stream ? { ...rest, stream, ...(streamOptions !== undefined ? { stream_options: streamOptions } : {}) } : { ...rest, stream }) as unknown as CompletionsRequest;
    const post = { connection, endpoint: 'completions', path: COMPLETIONS_PATH, body, headers: input.headers ?? {}, group: input.group, stream, validate: validateCompletionsRequest } as const;
    return runTextPost(this.options, ctx, post, async (run, opts) => {
      if (!stream) return run.finishPlain(await createCompletion(connection.client, body, opts));
      const assembler = new CompletionsAssembler();
      const { onEvent: onChunk, ...handlers } = streamIntoRun(run, assembler, (chunk: TextCompletionChunk) => {
        for (const c of Array.isArray(chunk.choices) ? chunk.choices : []) {
          run.delta({
            type: 'delta',
            choice: typeof c.index === 'number' ? c.index : 0,
            ...(c.text ? { content: c.text } : {}),
            ...(c.finish_reason ? { finishReason: c.finish_reason } : {}),
          });
        }
        if (chunk.usage) run.usage(chunk.usage);
      });
      const outcome = await streamCompletion(connection.client, body, { ...handlers, onChunk }, opts);
      const output = assembler.chunks > 0 ? assembler.result() : null;
      return run.finishStream(outcome, output, assembler.usage());
    });
  }

  /** POST /v1/complete (plain; a `stream` flag is passed on for the service to answer). */
  async complete(input: TextSendInput, ctx: TextRunContext): Promise<RunRecord> {
    const connection = this.options.connections.resolve(input.connectionId);
    const body = input.request as unknown as CompleteRequest;
    // The service answers a `stream` flag itself: that refusal is what the run records.
    const validate = (b: CompleteRequest) => validateCompleteRequest(b).filter((v) => v.field !== 'stream');
    const post = { connection, endpoint: 'complete', path: COMPLETE_PATH, body, headers: input.headers ?? {}, group: input.group, validate } as const;
    return runTextPost(this.options, ctx, post, async (run, opts) => run.finishPlain(await createComplete(connection.client, body, opts)));
  }
}
