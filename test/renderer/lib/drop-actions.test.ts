import { describe, expect, it } from 'vitest';
import { dropOffer, dropRoute } from '@/lib/drop-actions';

const ids = (files: { name: string; type: string }[]) => dropOffer(files).actions.map((a) => a.label);

describe('drop-actions', () => {
  describe('dropOffer()', () => {
    it('offers an image its three actions, by MIME type or, without one, by extension', () => {
      expect(ids([{ name: 'cat.png', type: 'image/png' }])).toEqual(['Edit in Images', 'Make a video from it', 'Upload to Files']);
      expect(ids([{ name: 'CAT.JPG', type: '' }])).toEqual(['Edit in Images', 'Make a video from it', 'Upload to Files']);
      expect(dropOffer([{ name: 'cat.webp', type: 'image/webp' }]).note).toBeNull();
    });

    it('offers an audio clip "Clone a voice" (by MIME type or extension), routed to Voices with its reference', () => {
      expect(ids([{ name: 'me.wav', type: 'audio/wav' }])).toEqual(['Transcribe', 'Clone a voice', 'Upload to Files']);
      expect(ids([{ name: 'me.WAV', type: '' }])).toEqual(['Transcribe', 'Clone a voice', 'Upload to Files']);
      expect(ids([{ name: 'me.mp3', type: 'audio/mpeg' }])).toContain('Clone a voice');
      expect(ids([{ name: 'me.flac', type: 'audio/flac' }])).toContain('Clone a voice');
      expect(ids([{ name: 'me.opus', type: '' }])).toContain('Clone a voice');
      expect(ids([{ name: 'me.m4a', type: 'audio/mp4' }])).toEqual(['Upload to Files']);
      expect(dropRoute('clone-voice', [{ ref: 'ref_x', name: 'me.wav' }])).toEqual({ path: '/voices', query: { ref: 'ref_x', name: 'me.wav' } });
    });

    it('offers an MP4 edit, extend and upload', () => {
      expect(ids([{ name: 'clip.mp4', type: 'video/mp4' }])).toEqual(['Edit video', 'Extend video', 'Upload to Files']);
    });

    it('offers a WAV, MP3, FLAC or Ogg file Transcribe and Clone a voice, by MIME type or by extension', () => {
      expect(ids([{ name: 'talk.wav', type: 'audio/wav' }])).toEqual(['Transcribe', 'Clone a voice', 'Upload to Files']);
      expect(ids([{ name: 'talk.WAV', type: '' }])).toEqual(['Transcribe', 'Clone a voice', 'Upload to Files']);
      expect(ids([{ name: 'song.mp3', type: 'audio/mpeg' }])).toEqual(['Transcribe', 'Clone a voice', 'Upload to Files']);
      expect(ids([{ name: 'a.flac', type: '' }])).toEqual(['Transcribe', 'Clone a voice', 'Upload to Files']);
      expect(ids([{ name: 'a.opus', type: '' }])).toEqual(['Transcribe', 'Clone a voice', 'Upload to Files']);
      expect(dropOffer([{ name: 'a.aac', type: 'audio/aac' }]).note).toBe('audio/aac can only be uploaded: transcription and voice cloning take WAV, MP3, FLAC or Ogg/Opus.');
    });

    it('offers anything else only the upload, and says why', () => {
      expect(dropOffer([{ name: 'notes.txt', type: 'text/plain' }])).toEqual({
        actions: [{ id: 'upload', label: 'Upload to Files' }],
        note: 'No image or video action fits text/plain; it can be uploaded to Files.',
      });
      expect(dropOffer([{ name: 'clip.mov', type: 'video/quicktime' }]).note).toBe('video/quicktime can only be uploaded: video edits and extensions take MP4 only.');
      expect(dropOffer([{ name: 'a.gif', type: 'image/gif' }]).note).toBe('image/gif can only be uploaded: Images and videos take JPEG, PNG or WebP images.');
      expect(dropOffer([{ name: 'blob', type: '' }]).note).toBe('No image or video action fits this file type; it can be uploaded to Files.');
    });

    it('offers several files only an upload of them all', () => {
      expect(dropOffer([{ name: 'a.png', type: 'image/png' }, { name: 'b.mp4', type: 'video/mp4' }])).toEqual({
        actions: [{ id: 'upload', label: 'Upload 2 files to Files' }],
        note: 'Drop one file at a time to edit it or make a video from it.',
      });
    });
  });

  describe('dropRoute()', () => {
    it('sends each action to the view that reads the reference', () => {
      const ref = 'ref_AAAAAAAAAAAAAAAAAAAA';
      const one = [{ ref, name: 'cat.png' }];
      expect(dropRoute('edit-image', one)).toEqual({ path: '/images', query: { ref, name: 'cat.png' } });
      expect(dropRoute('image-to-video', one)).toEqual({ path: '/videos', query: { ref, as: 'image', name: 'cat.png' } });
      expect(dropRoute('edit-video', one)).toEqual({ path: '/videos', query: { ref, as: 'edit', name: 'cat.png' } });
      expect(dropRoute('extend-video', one)).toEqual({ path: '/videos', query: { ref, as: 'extend', name: 'cat.png' } });
      expect(dropRoute('transcribe', [{ ref, name: 'talk.wav' }])).toEqual({ path: '/transcription', query: { ref, name: 'talk.wav' } });
      expect(dropRoute('upload', [...one, { ref: 'ref_BBBBBBBBBBBBBBBBBBBB', name: 'b' }])).toEqual({ path: '/files', query: { upload: [ref, 'ref_BBBBBBBBBBBBBBBBBBBB'] } });
    });
  });
});
