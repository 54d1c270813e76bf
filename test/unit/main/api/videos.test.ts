import { describe, expect, it } from 'vitest';
import { readVideoResult } from '../../../../main/api/videos';
import { videoFailureReason } from '../../../../main/families/videos/video-reasons';

describe('readVideoResult (tolerant poll reading)', () => {
  it('reads pending with its progress, clamped to 0–99', () => {
    expect(readVideoResult({ status: 'pending', progress: 42, model: 'm' }, 200)).toMatchObject({ state: 'pending', progress: 42, model: 'm' });
    expect(readVideoResult({ status: 'pending', progress: 140 }, 200)).toMatchObject({ progress: 99 });
  });

  it('reads an HTTP 202 as pending even without a status (an older revision)', () => {
    expect(readVideoResult(null, 202)).toMatchObject({ state: 'pending', progress: null });
    expect(readVideoResult({ progress: 10 }, 202)).toMatchObject({ state: 'pending', progress: 10 });
  });

  it('reads done with url, duration, cost, storage_error and file_output', () => {
    const done = readVideoResult(
      {
        status: 'done',
        progress: 100,
        model: 'svc-video-1',
        usage: { cost_in_usd_ticks: 123 },
        video: { url: 'https://cdn/v.mp4', duration: 6, respect_moderation: true, storage_error: 'PUT failed', file_output: { file_id: 'f1', filename: 'a.mp4' } },
      },
      200,
    );
    expect(done).toMatchObject({ state: 'done', url: 'https://cdn/v.mp4', duration: 6, respectModeration: true, costTicks: 123, storageError: 'PUT failed', fileOutput: { file_id: 'f1' } });
  });

  it('reads moderation (respect_moderation false, empty url)', () => {
    expect(readVideoResult({ status: 'done', video: { url: '', duration: 6, respect_moderation: false } }, 200)).toMatchObject({ state: 'done', url: null, respectModeration: false });
  });

  it('reads failed with its code and message, and expired', () => {
    expect(readVideoResult({ status: 'failed', error: { code: 'service_unavailable', message: 'busy' } }, 200)).toMatchObject({ state: 'failed', code: 'service_unavailable', message: 'busy' });
    expect(readVideoResult({ status: 'expired' }, 200)).toMatchObject({ state: 'expired' });
  });

  it('refuses a status it does not know (the caller reports a protocol error)', () => {
    expect(readVideoResult({ status: 'teleported' }, 200)).toBeNull();
    expect(readVideoResult({}, 200)).toBeNull();
  });
});

describe('videoFailureReason', () => {
  it('has a distinct reason for each spec error code, and for refused creates by status', () => {
    const codes = ['invalid_argument', 'permission_denied', 'failed_precondition', 'service_unavailable', 'internal_error'];
    const reasons = codes.map((serviceCode) => videoFailureReason({ code: 'api_error', message: '', serviceCode }));
    expect(new Set(reasons).size).toBe(codes.length);
    expect(videoFailureReason({ code: 'api_error', message: '', status: 401 })).toMatch(/API key/);
    expect(videoFailureReason({ code: 'api_error', message: '', status: 429 })).toMatch(/Rate limited/);
    expect(videoFailureReason({ code: 'network', message: '' })).toMatch(/could not reach/);
    // A poll's 404 (the request id is gone) is not "unknown model".
    expect(videoFailureReason({ code: 'not_found', message: '', status: 404 })).toMatch(/no longer has this video request/);
  });
});
