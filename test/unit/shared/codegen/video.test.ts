import { describe, expect, it } from 'vitest';
import { exportCode } from '../../../../shared/codegen';
import type { CapturedRequest } from '../../../../shared/contract/runs';
import { endpointOfRequest } from '../../../../shared/families';

const request: CapturedRequest = {
  method: 'POST',
  url: 'http://127.0.0.1:4010/v1/videos/extensions',
  headers: { 'content-type': 'application/json', 'idempotency-key': 'job_abc', 'x-team-token': '***' },
  body: { model: 'svc-video-1', prompt: 'then it rains', video: { file_id: 'file_1' }, duration: 4 },
};

describe('video code export', () => {
  it('knows the three video endpoints', () => {
    expect(endpointOfRequest('POST', '/v1/videos/generations')).toBe('videos.generations');
    expect(endpointOfRequest('POST', '/v1/videos/edits')).toBe('videos.edits');
    expect(endpointOfRequest('POST', '/v1/videos/extensions')).toBe('videos.extensions');
  });

  it.each(['curl', 'python', 'typescript'] as const)('%s: creates, polls every 5 s to done/failed, downloads; never repeats the Idempotency-Key', (lang) => {
    const out = exportCode(request, { lang });
    if (!('code' in out)) throw new Error(out.unsupported);
    expect(out.code).toContain('/v1/videos/extensions');
    expect(out.code).toMatch(/\/v1\/videos\/"?[^\n]*request_id/);
    expect(out.code).toMatch(/sleep 5|time\.sleep\(5\)|setTimeout\(resolve, 5000\)/);
    expect(out.code).toMatch(/"done"|done\)/);
    expect(out.code).toMatch(/failed/);
    expect(out.code).toContain('video.mp4');
    expect(out.code).not.toMatch(/job_abc/);
    expect(out.code).toContain('WORKBENCH_HEADER_X_TEAM_TOKEN');
  });

  it('the SDK languages say why there is no snippet', () => {
    expect(exportCode(request, { lang: 'python-sdk' })).toMatchObject({ unsupported: expect.stringMatching(/no call for this service's video API/) });
    expect(exportCode(request, { lang: 'typescript-sdk' })).toHaveProperty('unsupported');
  });
});
