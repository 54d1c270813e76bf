import { describe, expect, it } from 'vitest';
import { exportCode } from '../../../../shared/codegen/export';
import type { CapturedRequest } from '../../../../shared/contract/runs';
import { BASE, codeOf, SECRET } from './fixtures';

const headers = { accept: 'application/json', authorization: `Bearer ${SECRET}` };
const clone: CapturedRequest = {
  method: 'POST',
  url: `${BASE}/v1/custom-voices`,
  headers: { ...headers, 'content-type': 'multipart/form-data' },
  body: { multipart: [{ name: 'name', value: 'My clone' }, { name: 'tone', value: 'warm' }, { name: 'file', filename: 'me.wav', contentType: 'audio/wav', bytes: 4000 }] },
};
const edit: CapturedRequest = { method: 'PATCH', url: `${BASE}/v1/custom-voices/abcd1234`, headers: { ...headers, 'content-type': 'application/json' }, body: { tone: 'calm', accent: null } };

describe('codegen for custom voices (by the voices descriptors)', () => {
  it('writes a clone as multipart: the metadata fields, then the clip as file, the key from the environment', () => {
    const curl = codeOf(exportCode(clone, { lang: 'curl' }));
    expect(curl).toContain('/v1/custom-voices');
    expect(curl.indexOf("--form-string 'name=My clone'")).toBeLessThan(curl.indexOf('-F \'file=@"me.wav";type=audio/wav\''));
    expect(curl).not.toContain(SECRET);
    for (const lang of ['python', 'typescript'] as const) {
      const code = codeOf(exportCode(clone, { lang }));
      expect(code).toContain('/v1/custom-voices');
      expect(code).toContain('me.wav');
      expect(code).not.toContain(SECRET);
    }
  });

  it('writes an edit for curl (PATCH with its JSON) and says what is not written yet', () => {
    const curl = codeOf(exportCode(edit, { lang: 'curl' }));
    expect(curl).toMatch(/-X PATCH/);
    expect(curl).toContain('/v1/custom-voices/abcd1234');
    expect(curl).toContain('"accent": null');
    expect(exportCode(edit, { lang: 'python' })).toEqual({ unsupported: 'Not written for custom voices yet: use the curl tab.' });
    expect(exportCode(clone, { lang: 'python-sdk' })).toMatchObject({ unsupported: expect.stringContaining('no custom-voice methods') });
  });
});
