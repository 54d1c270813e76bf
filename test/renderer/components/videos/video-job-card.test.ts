import { afterEach, describe, expect, it, vi } from 'vitest';
import { flushPromises } from '@vue/test-utils';
import type { VideoJob } from '@shared/families/videos/contract';
import VideoJobCard from '@/families/videos/components/VideoJobCard.vue';
import { formatTime } from '@/lib/format';
import { button, mountWithApp, type Mounted } from '../../mount-app';
import { NOW, makeVideoItem, makeVideoJob } from './video-job-data';

let m: Mounted;
afterEach(() => {
  m?.wrapper.unmount();
  vi.useRealTimers();
});

async function card(job: VideoJob): Promise<Mounted> {
  m = await mountWithApp(VideoJobCard, { route: '/videos', props: { job }, fake: { videoJobs: [job] } });
  return m;
}

describe('VideoJobCard', () => {
  it('shows a pending job’s progress bar, and its elapsed time ticking each second from its creation', async () => {
    vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'], now: NOW });
    await card(makeVideoJob());
    expect(m.wrapper.find('[role="progressbar"]').attributes('aria-valuenow')).toBe('42');
    expect(m.wrapper.find('.elapsed').text()).toBe('1:05');
    vi.advanceTimersByTime(3000);
    await flushPromises();
    expect(m.wrapper.find('.elapsed').text()).toBe('1:08');
    expect(m.wrapper.text()).toContain('in progress');
    expect(button(m.wrapper, 'Cancel')).toBeTruthy();
  });

  it('keeps a finished job’s time fixed and shows its cost', async () => {
    vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'], now: NOW });
    await card(makeVideoJob({ state: 'done', progress: 100, finishedAt: NOW - 5_000, costTicks: 5_000_000_000, video: makeVideoItem() }));
    vi.advanceTimersByTime(10_000);
    await flushPromises();
    expect(m.wrapper.find('.elapsed').text()).toBe('1:00');
    expect(m.wrapper.text()).toContain('$0.50');
  });

  it('plays a finished video from its media URL, with Save, Open in gallery, Extend and Edit', async () => {
    await card(makeVideoJob({ state: 'done', progress: 100, finishedAt: NOW, video: makeVideoItem() }));
    const video = m.wrapper.find('video');
    expect(video.attributes('src')).toBe(`/media/${'b'.repeat(64)}?t=tok`);
    expect(video.attributes('preload')).toBe('metadata');
    expect(video.attributes('controls')).toBeDefined();
    for (const name of ['Save', 'Open in gallery', 'Extend', 'Edit', 'Dismiss']) expect(button(m.wrapper, name)).toBeTruthy();
    expect(m.wrapper.findAll('[role="progressbar"]')).toHaveLength(0);
    button(m.wrapper, 'Extend').click();
    expect(m.wrapper.emitted('extend')?.[0]?.[0]).toMatchObject({ id: 'job_1' });
    const push = vi.spyOn(m.router, 'push');
    button(m.wrapper, 'Open in gallery').click();
    expect(push).toHaveBeenCalledWith({ path: '/gallery', query: { open: 'gal_video0001' } });
  });

  it('shows a failure’s service code and plain reason, and Retry asks main to retry that job', async () => {
    await card(
      makeVideoJob({
        state: 'failed',
        finishedAt: NOW,
        progress: null,
        error: { code: 'api_error', message: 'engine overloaded', serviceCode: 'service_unavailable', reason: 'The service is overloaded right now; try again in a few minutes.' },
      }),
    );
    expect(m.wrapper.text()).toContain('service_unavailable');
    expect(m.wrapper.text()).toContain('The service is overloaded right now; try again in a few minutes.');
    button(m.wrapper, 'Retry').click();
    await flushPromises();
    expect(m.fake.controls.calls.filter((c) => c.method === 'videos.retry').map((c) => c.input)).toEqual([{ id: 'job_1' }]);
  });

  it('explains a moderated and an expired job and what to do', async () => {
    await card(makeVideoJob({ state: 'moderated', finishedAt: NOW, progress: 100 }));
    expect(m.wrapper.text()).toContain('moderation check stopped this video');
    expect(m.wrapper.text()).toContain('Change the prompt or the inputs');
    expect(() => button(m.wrapper, 'Retry')).toThrow();
    m.wrapper.unmount();
    await card(makeVideoJob({ state: 'expired', finishedAt: NOW, progress: 100 }));
    expect(m.wrapper.text()).toContain('link to it expired before the app could download it');
    expect(button(m.wrapper, 'Retry')).toBeTruthy();
  });

  it('Cancel on an unfinished job asks main to stop following it, saying the service may still make it', async () => {
    await card(makeVideoJob());
    expect(button(m.wrapper, 'Cancel').getAttribute('title')).toBe('Stop following this job (the service may still make the video)');
    button(m.wrapper, 'Cancel').click();
    await flushPromises();
    expect(m.fake.controls.calls.filter((c) => c.method === 'videos.cancel').map((c) => c.input)).toEqual([{ id: 'job_1' }]);
  });

  it('says a job waiting out an outage is waiting, why, since when, how many tries and when it tries next; Retry now asks main at once', async () => {
    const since = NOW - 600_000;
    const next = NOW + 20_000;
    await card(
      makeVideoJob({
        state: 'waiting',
        progress: 13,
        waiting: { since, failures: 14, reason: 'The app cannot reach the service: no network, or the service is down.', nextAttemptAt: next, message: 'connect ECONNREFUSED 127.0.0.1:4010' },
      }),
    );
    const text = m.wrapper.text();
    expect(m.wrapper.find('.job-state').text()).toBe('waiting');
    expect(text).toContain('Waiting for the service.');
    expect(text).toContain('The app cannot reach the service: no network, or the service is down.');
    expect(text).toContain(`14 tries failed since ${formatTime(since)}`);
    expect(m.wrapper.find('.next-attempt').text()).toBe(`next try at ${formatTime(next)}`);
    expect(text).toContain('Last error: connect ECONNREFUSED 127.0.0.1:4010');
    expect(() => button(m.wrapper, 'Retry')).toThrow();
    expect(button(m.wrapper, 'Cancel')).toBeTruthy();
    button(m.wrapper, 'Retry now').click();
    await flushPromises();
    expect(m.fake.controls.calls.filter((c) => c.method === 'videos.retry').map((c) => c.input)).toEqual([{ id: 'job_1' }]);
  });

  it('says a waiting job is trying again while its attempt is under way (Retry now has nothing to skip)', async () => {
    await card(makeVideoJob({ state: 'waiting', waiting: { since: NOW - 1000, failures: 1, reason: 'The service is unavailable or failing (503).', nextAttemptAt: null, message: '' } }));
    expect(m.wrapper.find('.next-attempt').text()).toBe('trying again now…');
    expect(m.wrapper.text()).toContain('1 try failed');
    expect(button(m.wrapper, 'Retry now').disabled).toBe(true);
  });

  it.each([
    ['a 400', { code: 'api_error' as const, status: 400, message: 'duration must be 1-15', reason: 'The service refused the request before starting.' }],
    ['a 422', { code: 'api_error' as const, status: 422, message: 'wrong shape', reason: 'A field of the request has the wrong shape.' }],
    ['invalid_argument', { code: 'api_error' as const, serviceCode: 'invalid_argument', message: 'bad image', reason: 'The service could not use something in the request.' }],
  ])('offers Edit and resend, not Retry, after %s (the same request would fail the same way)', async (_name, error) => {
    await card(makeVideoJob({ state: 'failed', finishedAt: NOW, progress: null, error }));
    expect(() => button(m.wrapper, 'Retry')).toThrow();
    expect(m.wrapper.text()).toContain('refused the request itself');
    button(m.wrapper, 'Edit and resend').click();
    expect(m.wrapper.emitted('resend')?.[0]?.[0]).toMatchObject({ id: 'job_1' });
  });

  it('keeps Retry (and no Edit and resend) after a failure worth retrying as it was', async () => {
    await card(makeVideoJob({ state: 'failed', finishedAt: NOW, progress: null, error: { code: 'api_error', status: 401, message: 'bad key', reason: 'The service did not accept the API key.' } }));
    expect(button(m.wrapper, 'Retry')).toBeTruthy();
    expect(() => button(m.wrapper, 'Edit and resend')).toThrow();
  });

  it('says a cancelled job may still be made by the service', async () => {
    await card(makeVideoJob({ state: 'cancelled', finishedAt: NOW }));
    expect(m.wrapper.text()).toContain('The service may still make the video');
  });

  it('shows a storage error, and links the stored file to Files', async () => {
    await card(
      makeVideoJob({
        state: 'done',
        finishedAt: NOW,
        video: makeVideoItem(),
        storageError: 'PUT to the upload URL answered 403',
        fileOutput: { file_id: 'file_out1', filename: 'out.mp4', public_url_error: 'public URLs are disabled for this team' },
      }),
    );
    expect(m.wrapper.text()).toContain('PUT to the upload URL answered 403. The video itself is here in the app.');
    expect(m.wrapper.text()).toContain('public URLs are disabled for this team');
    await m.wrapper.find('.file-link').trigger('click');
    await vi.waitFor(() => expect(m.router.currentRoute.value.fullPath).toBe('/files?id=file_out1'));
  });

  it('says a storage error that ends with a period with one period, not two', async () => {
    await card(
      makeVideoJob({
        state: 'done',
        finishedAt: NOW,
        video: makeVideoItem(),
        storageError: 'Uploading the video to output.upload_url failed: could not reach 127.0.0.1:6000 (bad port).',
      }),
    );
    expect(m.wrapper.text()).toContain('(bad port). The video itself is here in the app.');
    expect(m.wrapper.text()).not.toContain('..');
  });
});
