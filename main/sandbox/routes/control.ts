/**
 * The control API under `/sandbox/` (same auth as /v1): lets tests and other clients drive the
 * sandbox from outside the process. `POST /sandbox/clock/advance {"seconds": N}` moves the sandbox
 * clock forward (file and public-URL expiry, stored-response expiry, deferred completions);
 * `GET /sandbox/clock` reads it. Registered only when the sandbox's `controlApi` option is on.
 */
import type { Clock } from '../clock';
import { SandboxError } from '../errors';
import { sendJson, type Route } from '../route';
import { isObject } from '../../../shared/is-object';

/** Ten years: far enough for any expiry, small enough that a typo is caught. */
const MAX_ADVANCE_SECONDS = 10 * 365 * 86_400;

function clockState(clock: Clock): { now: number; now_ms: number } {
  return { now: clock.seconds(), now_ms: clock.now() };
}

export function controlRoutes(clock: Clock): Route[] {
  return [
    { method: 'GET', path: '/sandbox/clock', handle: ({ res }) => sendJson(res, 200, clockState(clock)) },
    {
      method: 'POST',
      path: '/sandbox/clock/advance',
      handle({ res, body }) {
        if (!isObject(body) || !('seconds' in body)) {
          throw new SandboxError(422, 'POST /sandbox/clock/advance takes {"seconds": N}.');
        }
        const { seconds } = body as { seconds: unknown };
        if (typeof seconds !== 'number' || !Number.isFinite(seconds)) throw new SandboxError(422, 'seconds must be a number.');
        if (seconds < 0 || seconds > MAX_ADVANCE_SECONDS) {
          throw new SandboxError(400, `seconds must be from 0 to ${MAX_ADVANCE_SECONDS} (the clock only moves forward); got ${seconds}.`);
        }
        clock.advance(Math.round(seconds * 1000));
        sendJson(res, 200, clockState(clock));
      },
    },
  ];
}
