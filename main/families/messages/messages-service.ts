/**
 * The Messages interface (`POST /v1/messages`), streamed or plain, recorded either way. The
 * renderer sees the chat chunk kinds: thinking -> reasoning, text -> content, a tool_use block ->
 * one tool call once its input is complete, and the stop reason as meta.
 */
import { createMessage, MESSAGES_PATH, streamMessage } from '../../api/messages';
import { MessagesAssembler } from '../../api/messages-assembler';
import type { RunRecord } from '../../../shared/contract/runs';
import { chatUsageOf } from '../../../shared/text-output';
import { validateMessagesRequest } from '../../../shared/validate/messages';
import type { MessagesRequest, MessagesStreamEvent } from '../../../shared/wire/messages';
import type { ConnectionsService } from '../../services/connections-service';
import { runTextPost, streamIntoRun, type TextSendInput } from '../../services/text-post';
import type { TextRun, TextRunContext, TextServiceDeps } from '../../services/text-run';
import { isObject } from '../../../shared/is-object';

export interface MessagesServiceOptions extends TextServiceDeps {
  connections: ConnectionsService;
}

type Obj = Record<string, unknown>;

export class MessagesService {
  constructor(private readonly options: MessagesServiceOptions) {}

  async send(input: TextSendInput, ctx: TextRunContext): Promise<RunRecord> {
    const connection = this.options.connections.resolve(input.connectionId);
    const stream = input.request.stream === true;
    const body = { ...input.request, stream } as unknown as MessagesRequest;
    const post = { connection, endpoint: 'messages', path: MESSAGES_PATH, body, headers: input.headers ?? {}, group: input.group, stream, validate: validateMessagesRequest } as const;
    return runTextPost(this.options, ctx, post, async (run, opts) => {
      if (!stream) return run.finishPlain(await createMessage(connection.client, body, opts));
      const assembler = new MessagesAssembler();
      const handlers = streamIntoRun(run, assembler, (event) => emitEvent(run, event, assembler));
      const outcome = await streamMessage(connection.client, body, handlers, opts);
      const output = assembler.events > 0 ? assembler.result() : null;
      return run.finishStream(outcome, output, output?.usage ?? null);
    });
  }
}

/** Forwards one event to the page; `assembler` has already taken it in (streamIntoRun). */
function emitEvent(run: TextRun, event: MessagesStreamEvent, assembler: MessagesAssembler): void {
  const e = event as unknown as Obj;
  const index = typeof e.index === 'number' ? e.index : 0;
  switch (e.type) {
    case 'content_block_delta': {
      const d = isObject(e.delta) ? e.delta : {};
      if (d.type === 'text_delta' && typeof d.text === 'string') run.delta({ type: 'delta', choice: 0, content: d.text });
      else if (d.type === 'thinking_delta' && typeof d.thinking === 'string') run.delta({ type: 'delta', choice: 0, reasoning: d.thinking });
      break;
    }
    case 'content_block_stop': {
      const tool = assembler.toolCall(index);
      if (tool) run.delta({ type: 'delta', choice: 0, toolCalls: [{ id: tool.id, type: 'function', function: { name: tool.name, arguments: tool.arguments } }] });
      break;
    }
    case 'message_delta': {
      const d = isObject(e.delta) ? e.delta : {};
      const stopReason = typeof d.stop_reason === 'string' ? d.stop_reason : null;
      if (stopReason) run.delta({ type: 'delta', choice: 0, finishReason: stopReason });
      run.meta({ stopReason, stopSequence: typeof d.stop_sequence === 'string' ? d.stop_sequence : null });
      run.usage(chatUsageOf('messages', assembler.result().usage));
      break;
    }
    default:
      break;
  }
}
