/** The media creates take the user's extra headers under the text playgrounds' rules: the app's own are refused at the boundary. */
import { describe, expect, it } from 'vitest';
import { ImageGenerateSchema } from '../../../../shared/families/images/contract';
import { VideoCreateSchema } from '../../../../shared/families/videos/contract';

describe('extra headers of media creates', () => {
  it('takes a sandbox failure header on a video create', () => {
    expect(VideoCreateSchema.safeParse({ mode: 'generate', model: 'm', prompt: 'p', headers: { 'x-sandbox-video-fail': 'internal_error' } }).success).toBe(true);
  });

  it('refuses Authorization, a line break and a repeated name, saying why', () => {
    const video = VideoCreateSchema.safeParse({ mode: 'generate', model: 'm', prompt: 'p', headers: { Authorization: 'Bearer other-key' } });
    expect(video.success).toBe(false);
    expect(video.error?.issues[0]?.message).toMatch(/Authorization cannot be set here/);
    expect(VideoCreateSchema.safeParse({ mode: 'generate', model: 'm', prompt: 'p', headers: { 'x-a': 'one\r\nx-b: two' } }).success).toBe(false);
    expect(ImageGenerateSchema.safeParse({ model: 'm', prompt: 'p', headers: { 'X-A': '1', 'x-a': '2' } }).success).toBe(false);
  });
});
