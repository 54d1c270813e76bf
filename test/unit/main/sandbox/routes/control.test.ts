import { describe, expect, it } from 'vitest';
import { startHarness, useHarness } from '../harness';
import { call, refusal } from './files-form';

const h = useHarness({ deferredDelayMs: 3_600_000 });

describe('sandbox/routes/control', () => {
  describe('POST /sandbox/clock/advance', () => {
    it('moves the sandbox clock forward and answers the new time', async () => {
      const before = (await (await call(h, 'GET', '/sandbox/clock')).json()) as { now: number; now_ms: number };
      expect(Math.abs(before.now_ms - Date.now())).toBeLessThan(5000);
      const after = (await (await call(h, 'POST', '/sandbox/clock/advance', { seconds: 86_400 })).json()) as { now: number; now_ms: number };
      expect(after.now_ms - before.now_ms).toBeGreaterThanOrEqual(86_400_000);
      expect(after.now_ms - before.now_ms).toBeLessThan(86_400_000 + 5000);
      expect(after.now).toBe(Math.floor(after.now_ms / 1000));
    });

    it('drives the other timed behaviour: a deferred completion becomes ready', async () => {
      const started = (await (await h.chat({ deferred: true })).json()) as { request_id: string };
      expect((await h.get(`/v1/chat/deferred-completion/${started.request_id}`)).status).toBe(202);
      await call(h, 'POST', '/sandbox/clock/advance', { seconds: 3600 });
      expect((await h.get(`/v1/chat/deferred-completion/${started.request_id}`)).status).toBe(200);
    });

    it.each([
      [{}, 422, 'POST /sandbox/clock/advance takes {"seconds": N}.'],
      [{ seconds: '10' }, 422, 'seconds must be a number.'],
      [{ seconds: -1 }, 400, 'seconds must be from 0 to 315360000 (the clock only moves forward); got -1.'],
      [{ seconds: 1e12 }, 400, 'seconds must be from 0 to 315360000 (the clock only moves forward); got 1000000000000.'],
    ])('refuses %j', async (body, status, error) => {
      expect(await refusal(await call(h, 'POST', '/sandbox/clock/advance', body))).toEqual({ status, error });
    });

    it('needs the same API key as /v1', async () => {
      const res = await fetch(`${h.sandbox.url}/sandbox/clock/advance`, { method: 'POST', body: '{"seconds":1}', headers: { 'content-type': 'application/json' } });
      expect(res.status).toBe(401);
    });
  });

  it('is absent when the controlApi option is off', async () => {
    const off = await startHarness({ controlApi: false });
    try {
      expect(off.sandbox.controlApi).toBe(false);
      expect((await call(off, 'POST', '/sandbox/clock/advance', { seconds: 1 })).status).toBe(404);
    } finally {
      await off.sandbox.close();
    }
  });
});
