/**
 * A live kind for tests only: a counter that ticks every `intervalMs` (0: only on request) and
 * emits `{ n }` per tick; its snapshot is the count so far and the last few ticks (a bounded
 * replay). Control: `tick` (emit `count` ticks now), `fail` (throw), `end` (the session ends by
 * itself). Its finaliser waits a few turns before recording the reason, so a caller that did not
 * await it would see nothing finalised.
 */
import { z } from 'zod';
import { WorkbenchFailure } from '../../../../shared/contract/errors';
import { defineLiveKind, Replay } from '../../../../main/live/kind';

export interface TickerSnapshot {
  label: string;
  count: number;
  recent: number[];
}

export interface TickerEvent {
  n: number;
  pad?: string;
}

/** What the ticker's finalisers did, in order (id and reason). */
export const finalised: Array<{ id: string; reason: string; count: number }> = [];

/** What `failStart: 'service'` throws: a service's refusal as the media process hands it up. */
export const TICKER_SERVICE_ERROR = {
  code: 'api_error',
  status: 400,
  message: 'The WebSocket to 127.0.0.1:4010 was refused. The service rejected the request (400): Incorrect API key provided: sk***42.',
  requestId: 'req-ticker-0001',
  serviceCode: 'Client specified an invalid argument',
} as const;

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

export const tickerKind = defineLiveKind({
  id: 'test-ticker',
  input: z
    .object({
      label: z.string().min(1).max(40),
      intervalMs: z.number().int().min(0).max(1000),
      /** Each event carries this many bytes of padding (a chatty session's large events). */
      padBytes: z.number().int().min(0).max(1024 * 1024).optional(),
      /** Fail to start: `service` as a kind whose service refused it (an error value), `crash` with a plain Error. */
      failStart: z.enum(['service', 'crash']).optional(),
    })
    .strict(),
  control: z.discriminatedUnion('type', [
    z.object({ type: z.literal('tick'), count: z.number().int().min(1).max(1000) }).strict(),
    z.object({ type: z.literal('fail') }).strict(),
    z.object({ type: z.literal('end') }).strict(),
  ]),
  start(ctx) {
    if (ctx.input.failStart === 'crash') throw new Error('ticker crashed at /home/someone/secret-layout');
    if (ctx.input.failStart === 'service') throw new WorkbenchFailure(TICKER_SERVICE_ERROR);
    let count = 0;
    const recent = new Replay<number>(5);
    const pad = ctx.input.padBytes ? 'x'.repeat(ctx.input.padBytes) : undefined;
    const tick = () => {
      count++;
      recent.push(count);
      ctx.emit((pad ? { n: count, pad } : { n: count }) satisfies TickerEvent);
    };
    const timer = ctx.input.intervalMs > 0 ? setInterval(tick, ctx.input.intervalMs) : null;
    ctx.signal.addEventListener('abort', () => timer && clearInterval(timer), { once: true });
    ctx.setState('ticking');
    return {
      snapshot: (): TickerSnapshot => ({ label: ctx.input.label, count, recent: recent.list() }),
      control(message) {
        if (message.type === 'tick') for (let i = 0; i < message.count; i++) tick();
        else if (message.type === 'fail') throw new WorkbenchFailure({ code: 'invalid_input', message: 'The ticker refuses to fail on request.' });
        else ctx.end();
      },
      async stop(reason) {
        for (let i = 0; i < 3; i++) await turn();
        finalised.push({ id: ctx.id, reason, count });
      },
    };
  },
});
