/**
 * A name a user gives comes back as they gave it, whichever escaping the client used in the
 * multipart filename (issue 14, item 3): the HTML standard's %22 / %0D / %0A (browsers, plain
 * `curl -F`) or backslashes (`curl --form-escape`).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { KEY, useHarness } from '../harness';
import { BOUNDARY, call, refusal } from './files-form';

const h = useHarness();
const NAME = 'résumé "final".txt';

function send(disposition: string): Promise<Response> {
  return fetch(`${h.sandbox.url}/v1/files`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
    body: Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; ${disposition}\r\n\r\nhello\r\n--${BOUNDARY}--\r\n`),
  });
}

async function storedName(disposition: string): Promise<string> {
  const res = await send(disposition);
  expect(res.status).toBe(200);
  return ((await res.json()) as { filename: string }).filename;
}

describe('sandbox files: names with quotes', () => {
  it('decodes the HTML standard escaping (%22, %0D, %0A) and backslash escapes to the same name', async () => {
    expect(await storedName('name="file"; filename="résumé %22final%22.txt"')).toBe(NAME);
    expect(await storedName('name="file"; filename="résumé \\"final\\".txt"')).toBe(NAME);
    // Only those three: other percent sequences are the user's own text.
    expect(await storedName('name="file"; filename="100%25 %41.txt"')).toBe('100%25 %41.txt');
    // A line break in a name arrives as %0A / %0D, and is refused as a control character.
    expect(await refusal(await send('name="file"; filename="a%0Ab.txt"'))).toEqual({ status: 400, error: "The file part's filename must not contain control characters." });
    expect((await refusal(await send('name="file"; filename="a%0db.txt"'))).status).toBe(400);
  });

  it('gives the name back in the list and in the download header', async () => {
    const id = ((await (await send('name="file"; filename="résumé %22final%22.txt"')).json()) as { id: string }).id;
    expect(((await (await call(h, 'GET', `/v1/files/${id}`)).json()) as { filename: string }).filename).toBe(NAME);
    const content = await call(h, 'GET', `/v1/files/${id}/content`);
    expect(content.headers.get('content-disposition')).toBe(`attachment; filename="r_sum_ _final_.txt"; filename*=UTF-8''${encodeURIComponent(NAME)}`);
  });

  it.each([
    ['curl -F (escapes " as %22, as browsers do)', [] as string[]],
    ['curl --form-escape (escapes with backslashes)', ['--form-escape']],
  ])('keeps the name a real client sends: %s', async (_, flags) => {
    const dir = mkdtempSync(join(tmpdir(), 'sb-names-'));
    try {
      const path = join(dir, 'plain.txt');
      writeFileSync(path, 'hello');
      // curl reads ;filename="..." with backslash escapes of its own; the quotes in the value are escaped for it.
      const { stdout } = await promisify(execFile)('curl', [
        '-sS',
        ...flags,
        '-H',
        `Authorization: Bearer ${KEY}`,
        '-F',
        `file=@${path};filename="résumé \\"final\\".txt"`,
        `${h.sandbox.url}/v1/files`,
      ]);
      expect((JSON.parse(stdout) as { filename: string }).filename).toBe(NAME);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
