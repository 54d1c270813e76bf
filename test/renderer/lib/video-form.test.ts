import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { VideoCreateSchema } from '@shared/families/videos/contract';
import { buildVideoCreate, defaultVideoForm, durationRule, sizeLockedReason, suggestedVideoFileName, videoFormViolations, type MediaChip, type VideoForm } from '@/lib/video-form';

const plain = { id: 'svc-video-1', inputModalities: ['text', 'image'] };
const withAudio = { id: 'svc-video-av', inputModalities: ['text', 'image', 'audio'] };
const png: MediaChip = { source: { kind: 'gallery', id: 'gal_image0001' }, label: 'cat.png', kind: 'image', mime: 'image/png' };
const mp4: MediaChip = { source: { kind: 'gallery', id: 'gal_video0001' }, label: 'clip.mp4', kind: 'video', mime: 'video/mp4' };

function form(over: Partial<VideoForm> = {}): VideoForm {
  return { ...defaultVideoForm('svc-video-1'), prompt: 'a cat surfing', ...over };
}
const messages = (f: VideoForm, model = plain): string[] => videoFormViolations(f, model).map((v) => `${v.field}: ${v.message}`);

describe('video-form', () => {
  describe('durationRule()', () => {
    it('is 1–15 (default 8) for a generation, 2–10 (default 6) for an extension, and none for an edit', () => {
      expect([durationRule('generate'), durationRule('extend'), durationRule('edit')]).toEqual([
        { min: 1, max: 15, default: 8 },
        { min: 2, max: 10, default: 6 },
        null,
      ]);
    });
  });

  describe('videoFormViolations()', () => {
    it('accepts every whole duration in the mode’s range and refuses every one outside it', () => {
      fc.assert(
        fc.property(fc.constantFrom<'generate' | 'extend'>('generate', 'extend'), fc.integer({ min: -5, max: 30 }), (mode, d) => {
          const f = form({ mode, video: mode === 'extend' ? mp4 : null, durations: { generate: d, extend: d } });
          const rule = durationRule(mode)!;
          const refused = videoFormViolations(f, plain).some((v) => v.field === 'duration');
          expect(refused).toBe(d < rule.min || d > rule.max);
        }),
      );
    });

    it('says the extension range when a generation’s 12 s is carried into Extend', () => {
      const f = form({ mode: 'extend', video: mp4, durations: { generate: 12, extend: 12 } });
      expect(messages(f)).toEqual(['duration: an extension lasts 2–10 whole seconds (default 6)']);
      expect(messages({ ...f, mode: 'generate', video: null })).toEqual([]);
    });

    it('ignores the duration of an edit (it is not sent)', () => {
      const f = form({ mode: 'edit', video: mp4, durations: { generate: 99, extend: 99 } });
      expect(messages(f)).toEqual([]);
      expect(buildVideoCreate(f)).toEqual({ mode: 'edit', model: 'svc-video-1', prompt: 'a cat surfing', video: mp4.source });
    });

    it('needs a prompt, except for image-to-video; edit and extend say what to write', () => {
      expect(messages(form({ prompt: '' }))).toEqual(['prompt: write a prompt (or give an image to animate)']);
      expect(messages(form({ prompt: '', image: png }))).toEqual([]);
      expect(messages(form({ prompt: '', image: png, referenceImages: [png] }))).toEqual(['prompt: a reference-to-video needs a prompt']);
      expect(messages(form({ prompt: ' ', mode: 'extend', video: mp4 }))).toEqual(['prompt: say what happens next']);
      expect(messages(form({ prompt: '', mode: 'edit', video: mp4 }))).toEqual(['prompt: say what to change']);
    });

    it('needs the video for edit and extend, and an MP4 at that', () => {
      expect(messages(form({ mode: 'extend' }))).toEqual(['video: choose the video to extend']);
      const mov: MediaChip = { source: { kind: 'ref', ref: 'ref_AAAAAAAAAAAAAAAAAAAA' }, label: 'clip.mov', kind: 'video', mime: 'video/quicktime' };
      expect(messages(form({ mode: 'edit', video: mov }))).toEqual(['video: "clip.mov" is not an MP4 video; edits and extensions take .mp4 only']);
      const url: MediaChip = { source: { kind: 'url', url: 'https://example.com/a.webm' }, label: 'a.webm', kind: 'video', mime: '' };
      expect(messages(form({ mode: 'edit', video: url }))[0]).toContain('not an MP4');
    });

    it('allows reference voices only on a model whose inputs include audio, and says why not', () => {
      const f = form({ referenceAudios: ['eve'] });
      expect(messages(f)).toEqual(['referenceAudios: reference voices: svc-video-1 does not take reference audio (it accepts text, image)']);
      expect(messages(f, withAudio)).toEqual([]);
      expect(messages(form({ referenceAudios: ['eve', 'ara', 'leo', 'rex'] }), withAudio)).toEqual(['referenceAudios: at most 3 reference voices']);
    });

    it('refuses an image that is not JPEG, PNG or WebP', () => {
      const gif: MediaChip = { ...png, label: 'a.gif', mime: 'image/gif' };
      expect(messages(form({ image: gif }))).toEqual(['image: "a.gif" is image/gif; a video starts from a JPEG, PNG or WebP image']);
    });

    it('keeps a stored file’s expiry within 30 days, in the unit shown', () => {
      const storage = { enabled: true, filename: 'out.mp4', expiresIn: 30, expiresUnit: 'days' as const, publicUrl: false };
      expect(messages(form({ storage }))).toEqual([]);
      expect(messages(form({ storage: { ...storage, expiresIn: 31 } }))).toEqual([
        'storage.expiresAfter: a stored video expires after at most 30 days (2,592,000 s), or leave it empty for no expiry',
      ]);
      expect(messages(form({ storage: { ...storage, expiresIn: 720, expiresUnit: 'hours' } }))).toEqual([]);
      expect(messages(form({ storage: { ...storage, expiresIn: 721, expiresUnit: 'hours' } }))).toHaveLength(1);
      // An empty name says what to do, not just "a file name".
      expect(messages(form({ storage: { ...storage, filename: ' ' } }))).toEqual([
        'storage.filename: name the file to store the video as (e.g. heron.mp4), or untick "Also store the video as a file"',
      ]);
    });
  });

  describe('suggestedVideoFileName()', () => {
    it('names the file after the prompt, and after the mode and time when there is none', () => {
      expect(suggestedVideoFileName({ mode: 'generate', prompt: 'A heron takes off at dawn, over the Éstuary!' })).toBe('heron-takes-off-at-dawn-over-estuary.mp4');
      expect(suggestedVideoFileName({ mode: 'generate', prompt: 'word '.repeat(40) }).length).toBeLessThanOrEqual(52);
      expect(suggestedVideoFileName({ mode: 'edit', prompt: '   ' }, new Date(2026, 10, 27, 6, 5))).toBe('video-edit-2026-11-27-0605.mp4');
      // Whatever the prompt, the name is one the contract takes.
      fc.assert(fc.property(fc.string(), (prompt) => VideoCreateSchema.shape.storage.unwrap().shape.filename.safeParse(suggestedVideoFileName({ mode: 'generate', prompt })).success));
    });
  });

  describe('sizeLockedReason()', () => {
    it('locks aspect ratio and resolution for edit and extend, and leaves them out of the request', () => {
      expect(sizeLockedReason('generate')).toBeNull();
      expect(sizeLockedReason('edit')).toContain('keeps the input’s size');
      expect(sizeLockedReason('extend')).toContain('keeps the input’s size');
      const f = form({ mode: 'extend', video: mp4, aspectRatio: '16:9', resolution: '720p', durations: { generate: 3, extend: 4 } });
      expect(buildVideoCreate(f)).toEqual({ mode: 'extend', model: 'svc-video-1', prompt: 'a cat surfing', video: mp4.source, duration: 4 });
    });
  });

  describe('buildVideoCreate()', () => {
    it('sends a generation’s inputs, size, duration, output and storage', () => {
      const f = form({
        image: png,
        referenceImages: [png],
        referenceAudios: ['eve'],
        aspectRatio: '9:16',
        resolution: '480p',
        durations: { generate: 5, extend: null },
        uploadUrl: ' https://bucket.example/put?sig=1 ',
        storage: { enabled: true, filename: 'out.mp4', expiresIn: 2, expiresUnit: 'days', publicUrl: true },
      });
      expect(buildVideoCreate(f)).toEqual({
        mode: 'generate',
        model: 'svc-video-1',
        prompt: 'a cat surfing',
        image: png.source,
        referenceImages: [png.source],
        referenceAudios: ['eve'],
        aspectRatio: '9:16',
        resolution: '480p',
        duration: 5,
        output: { uploadUrl: 'https://bucket.example/put?sig=1' },
        storage: { filename: 'out.mp4', expiresAfter: 172_800, publicUrl: true },
      });
    });
  });
});
