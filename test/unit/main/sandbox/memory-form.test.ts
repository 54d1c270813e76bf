/** readMemoryForm: the multipart reader the STT, custom-voice and image-edit forms share. */
import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readMemoryForm, type FormPartHead, type MemoryFormRules } from '../../../../main/sandbox/files/memory-form';

const B = 'xyzBOUNDARY';

function request(body: string | Buffer, contentType = `multipart/form-data; boundary=${B}`): IncomingMessage {
  const stream = Readable.from([Buffer.from(body)]) as unknown as IncomingMessage;
  stream.headers = { 'content-type': contentType };
  return stream;
}

function form(parts: Array<{ name?: string; filename?: string; type?: string; value: string }>, close = true): string {
  const out = parts.map((p) => {
    const disposition = `form-data${p.name !== undefined ? `; name="${p.name}"` : ''}${p.filename !== undefined ? `; filename="${p.filename}"` : ''}`;
    return `--${B}\r\nContent-Disposition: ${disposition}\r\n${p.type ? `Content-Type: ${p.type}\r\n` : ''}\r\n${p.value}\r\n`;
  });
  return out.join('') + (close ? `--${B}--\r\n` : '');
}

function rules(over: Partial<MemoryFormRules> = {}): { rules: MemoryFormRules; seen: Array<[FormPartHead, string]> } {
  const seen: Array<[FormPartHead, string]> = [];
  return {
    seen,
    rules: {
      maxBytes: 10_000,
      tooLarge: 'too large',
      notMultipart: (reason) => `not a form: ${reason}`,
      isFile: (p) => p.name === 'file',
      maxFieldBytes: 8,
      fieldTooLarge: (name) => `field ${name} too long`,
      onPartEnd: (head, bytes) => seen.push([head, bytes.toString('utf8')]),
      ...over,
    },
  };
}

describe('readMemoryForm', () => {
  it('hands on each part whole, in order, with its name, filename and type; a file may pass the field limit', async () => {
    const r = rules();
    await readMemoryForm(request(form([{ name: 'language', value: 'en' }, { name: 'file', filename: 'a.wav', type: 'audio/wav', value: 'RIFF-much-longer-than-eight' }])), r.rules);
    expect(r.seen).toEqual([
      [{ name: 'language', filename: undefined, contentType: 'application/octet-stream' }, 'en'],
      [{ name: 'file', filename: 'a.wav', contentType: 'audio/wav' }, 'RIFF-much-longer-than-eight'],
    ]);
  });

  it('refuses a text part over the field limit (400), a body over maxBytes (413), a body that is not multipart (415)', async () => {
    await expect(readMemoryForm(request(form([{ name: 'prompt', value: 'nine char' }])), rules().rules)).rejects.toMatchObject({ status: 400, message: 'field prompt too long' });
    await expect(readMemoryForm(request(form([{ name: 'file', value: 'x'.repeat(200) }])), rules({ maxBytes: 100 }).rules)).rejects.toMatchObject({ status: 413, message: 'too large' });
    await expect(readMemoryForm(request('{}', 'application/json'), rules().rules)).rejects.toMatchObject({ status: 415, message: expect.stringMatching(/^not a form: /) });
  });

  it('refuses a part without a name, a part the route refuses, and a body cut short (400)', async () => {
    await expect(readMemoryForm(request(form([{ value: 'v' }])), rules().rules)).rejects.toMatchObject({ status: 400, message: expect.stringContaining('has no name') });
    const refusing = rules({
      onPart: (p) => {
        if (p.name === 'late') throw Object.assign(new Error('late refused'), { status: 400 });
      },
    });
    await expect(readMemoryForm(request(form([{ name: 'a', value: '1' }, { name: 'late', value: '2' }])), refusing.rules)).rejects.toMatchObject({ message: 'late refused' });
    expect(refusing.seen.map(([h]) => h.name)).toEqual(['a']);
    await expect(readMemoryForm(request(form([{ name: 'a', value: '1' }], false)), rules().rules)).rejects.toMatchObject({ status: 400, message: expect.stringMatching(/closing boundary/) });
  });
});
