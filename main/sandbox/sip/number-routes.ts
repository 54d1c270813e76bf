/**
 * `POST /v2/phone-numbers` registers a number for API-controlled SIP calls and answers
 * `{phone_number, webhook}` with the webhook's signing secret (the only time it is shown);
 * `GET /v2/phone-numbers` lists the team's numbers as `{phone_numbers: […]}` (snake_case, as the
 * spec's fields are: wire-notes rule 1), without secrets.
 */
import type { Clock } from '../clock';
import { SandboxError } from '../errors';
import { sendJson, type Route } from '../route';
import { checkNumberRequest } from './number-request';
import type { PhoneNumberStore } from './numbers';

export function phoneNumberRoutes(store: PhoneNumberStore, clock: Clock, log: (line: string) => void): Route[] {
  return [
    {
      method: 'POST',
      path: '/v2/phone-numbers',
      handle({ res, body, team }) {
        const checked = checkNumberRequest(body);
        if ('errors' in checked) throw new SandboxError(checked.status, checked.errors.join('; '));
        const made = store.register(team, checked.request, clock.now());
        if (!made.ok) throw new SandboxError(made.status, made.message);
        log(`sip: ${made.number.phone_number} registered (${made.number.phone_number_id}, ${made.number.origin}) for ${team}; calls go to ${made.webhook.url}`);
        sendJson(res, 200, {
          phone_number: made.number,
          webhook: { webhook_id: made.webhook.webhook_id, dispatch_signing_secret: made.webhook.secret },
        });
      },
    },
    { method: 'GET', path: '/v2/phone-numbers', handle: ({ res, team }) => sendJson(res, 200, { phone_numbers: store.list(team) }) },
  ];
}
