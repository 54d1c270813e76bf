import { describe, expect, it } from 'vitest';
import { defaultVideoForm } from '@/lib/video-form';
import { formFromJob } from '@/families/videos/stores/video-form';
import { makeVideoJob } from '../components/videos/video-job-data';

describe('formFromJob (Edit and resend)', () => {
  it('puts a refused generation back in the form: its inputs as the card named them, sizes, duration, output and storage', () => {
    const job = makeVideoJob({
      state: 'failed',
      inputs: ['image: cat.png', 'image: ref.jpg', 'image: https://example.com/b.png'],
      request: {
        mode: 'generate',
        model: 'svc-video-1',
        prompt: 'a cat surfing',
        image: { kind: 'gallery', id: 'gal_cat00001' },
        referenceImages: [{ kind: 'file', fileId: 'file_ref1' }, { kind: 'url', url: 'https://example.com/b.png' }],
        referenceAudios: ['ara'],
        aspectRatio: '9:16',
        resolution: '480p',
        duration: 15,
        output: { uploadUrl: 'https://bucket.example/put?sig=1' },
        storage: { filename: 'cat.mp4', expiresAfter: 172_800, publicUrl: true },
      },
    });
    const { form, complete } = formFromJob(job, defaultVideoForm('other-model'));
    expect(complete).toBe(true);
    expect(form).toMatchObject({
      mode: 'generate',
      model: 'svc-video-1',
      prompt: 'a cat surfing',
      image: { source: { kind: 'gallery', id: 'gal_cat00001' }, label: 'cat.png', kind: 'image' },
      referenceImages: [
        { source: { kind: 'file', fileId: 'file_ref1' }, label: 'ref.jpg', kind: 'image' },
        { source: { kind: 'url', url: 'https://example.com/b.png' }, label: 'https://example.com/b.png', kind: 'image' },
      ],
      referenceAudios: ['ara'],
      video: null,
      aspectRatio: '9:16',
      resolution: '480p',
      durations: { generate: 15, extend: null },
      uploadUrl: 'https://bucket.example/put?sig=1',
      storage: { enabled: true, filename: 'cat.mp4', expiresIn: 2, expiresUnit: 'days', publicUrl: true },
    });
  });

  it('puts back an extension with its video, and says so when an old job kept no request', () => {
    const extend = makeVideoJob({
      mode: 'extend',
      inputs: ['video: boat.mp4'],
      request: { mode: 'extend', model: 'svc-video-1', prompt: 'then it rains', video: { kind: 'gallery', id: 'gal_boat0001' }, duration: 4, storage: { filename: 'x.mp4', expiresAfter: 7200 } },
    });
    expect(formFromJob(extend, defaultVideoForm()).form).toMatchObject({
      mode: 'extend',
      video: { source: { kind: 'gallery', id: 'gal_boat0001' }, label: 'boat.mp4', kind: 'video' },
      durations: { generate: null, extend: 4 },
      storage: { enabled: true, expiresIn: 2, expiresUnit: 'hours' },
    });
    const old = formFromJob(makeVideoJob({ inputs: ['image: cat.png'], request: null, duration: 8 }), defaultVideoForm());
    expect(old.complete).toBe(false);
    expect(old.form).toMatchObject({ mode: 'generate', prompt: 'a cat surfing', image: null, durations: { generate: 8 }, aspectRatio: '16:9', resolution: '720p' });
  });
});
