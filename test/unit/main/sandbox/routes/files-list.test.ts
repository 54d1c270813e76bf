import { describe, expect, it } from 'vitest';
import { OTHER_KEY, useHarness } from '../harness';
import { call, refusal, upload, uploadFile } from './files-form';

const h = useHarness();

type Listed = { data: Array<{ id: string; filename: string; bytes: number; created_at: number }>; pagination_token: string | null; has_more: boolean };
const list = async (query: string, key?: string): Promise<Listed> => {
  const res = await call(h, 'GET', `/v1/files${query}`, undefined, key);
  expect(res.status).toBe(200);
  return (await res.json()) as Listed;
};
const names = (l: Listed) => l.data.map((f) => f.filename);

describe('sandbox/routes/files: GET /v1/files', () => {
  // Five files, a minute apart on the sandbox clock, with different names, sizes and types.
  const files: Array<Record<string, any>> = [];
  const specs: Array<[string, number, string, Record<string, string>]> = [
    ['report-2025.pdf', 300, 'application/pdf', { user_defined_id: 'inv-1' }],
    ['Photo.PNG', 50, 'image/png', {}],
    ['notes.txt', 120, 'text/plain', { expires_after: '7200' }],
    ['annual REPORT.docx', 800, 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', {}],
    ['zebra.png', 10, 'image/png', {}],
  ];

  it('lists newest first by default, everything up to the limit of 100', async () => {
    for (const [name, size, type, fields] of specs) {
      const parts = [...Object.entries(fields).map(([n, v]) => ({ name: n, body: v })), { name: 'file', filename: name, contentType: type, body: Buffer.alloc(size, 0x61) }];
      files.push((await (await upload(h, parts)).json()) as Record<string, any>);
      await call(h, 'POST', '/sandbox/clock/advance', { seconds: 60 });
    }
    const all = await list('');
    expect(names(all)).toEqual(['zebra.png', 'annual REPORT.docx', 'notes.txt', 'Photo.PNG', 'report-2025.pdf']);
    expect(all.data[0]).toEqual(files[4]);
    expect(all.pagination_token).toBe(files[0].id);
    expect(all.has_more).toBe(false);
    expect((await list('', OTHER_KEY)).data).toEqual([]);
  });

  it('sorts by filename and size, either way', async () => {
    expect(names(await list('?sort_by=filename&order=asc'))).toEqual(['Photo.PNG', 'annual REPORT.docx', 'notes.txt', 'report-2025.pdf', 'zebra.png']);
    expect(names(await list('?sort_by=size'))).toEqual(['annual REPORT.docx', 'report-2025.pdf', 'notes.txt', 'Photo.PNG', 'zebra.png']);
    expect(names(await list('?sort_by=size&order=asc'))).toEqual(['zebra.png', 'Photo.PNG', 'notes.txt', 'report-2025.pdf', 'annual REPORT.docx']);
    expect(names(await list('?sort_by=created_at&order=asc'))).toEqual(specs.map((s) => s[0]));
  });

  it('pages with pagination_token (and its alias after) until a page is shorter than limit', async () => {
    const seen: string[] = [];
    let token: string | null = null;
    for (let page = 0; ; page++) {
      const l: Listed = await list(`?limit=2&sort_by=size&order=asc${token ? `&${page % 2 ? 'after' : 'pagination_token'}=${token}` : ''}`);
      seen.push(...names(l));
      expect(l.pagination_token).toBe(l.data.at(-1)?.id ?? null);
      // Not in the spec: for the official SDKs' auto-pagination.
      expect(l.has_more).toBe(seen.length < 5);
      token = l.pagination_token;
      if (l.data.length < 2) break;
    }
    expect(seen).toEqual(['zebra.png', 'Photo.PNG', 'notes.txt', 'report-2025.pdf', 'annual REPORT.docx']);
  });

  it('keeps a token valid after its file is deleted', async () => {
    const extra = await uploadFile(h, 'temp.bin', 'x');
    const first = await list('?limit=1');
    expect(first.pagination_token).toBe(extra.id);
    await call(h, 'DELETE', `/v1/files/${extra.id}`);
    expect(names(await list(`?limit=1&pagination_token=${extra.id}`))).toEqual(['zebra.png']);
  });

  describe('filter', () => {
    it.each([
      ['name:report', ['annual REPORT.docx', 'report-2025.pdf']],
      ['file_name = "Photo.PNG"', ['Photo.PNG']],
      ['content_type:image', ['zebra.png', 'Photo.PNG']],
      ['content_type = IMAGE/PNG', ['zebra.png', 'Photo.PNG']],
      ['size_bytes >= 120 AND size_bytes < 800', ['notes.txt', 'report-2025.pdf']],
      ['name:report AND (size_bytes > 500 OR content_type = "application/pdf")', ['annual REPORT.docx', 'report-2025.pdf']],
      ['content_type:image AND NOT name:zebra', ['Photo.PNG']],
      ['-name:png', ['annual REPORT.docx', 'notes.txt', 'report-2025.pdf']],
      ['expires_at > 2000-01-01T00:00:00Z', ['notes.txt']],
      ['user_defined_id = inv-1', ['report-2025.pdf']],
      ['upload_status = Complete AND size_bytes < 60', ['zebra.png', 'Photo.PNG']],
    ])('%s', async (filter, expected) => {
      expect(names(await list(`?filter=${encodeURIComponent(filter)}`))).toEqual(expected);
    });

    it('filters on created_at with RFC 3339 times', async () => {
      const third = new Date(files[2].created_at * 1000).toISOString();
      expect(names(await list(`?order=asc&filter=${encodeURIComponent(`created_at >= ${third}`)}`))).toEqual(['notes.txt', 'annual REPORT.docx', 'zebra.png']);
      expect(names(await list(`?filter=${encodeURIComponent(`file_id = ${files[1].id}`)}`))).toEqual(['Photo.PNG']);
    });

    it('combines filter, sort and pages', async () => {
      const first = await list(`?limit=1&sort_by=filename&order=asc&filter=${encodeURIComponent('content_type:image OR name:notes')}`);
      expect(names(first)).toEqual(['Photo.PNG']);
      const rest = await list(`?limit=5&sort_by=filename&order=asc&pagination_token=${first.pagination_token}&filter=${encodeURIComponent('content_type:image OR name:notes')}`);
      expect(names(rest)).toEqual(['notes.txt', 'zebra.png']);
    });

    // The wording belongs to shared/aip160; the sandbox adds the column and passes it on.
    it.each([
      ['name:', 6, /value/],
      ['size_bytes > big', 14, /size_bytes must be a whole number of bytes, like 1048576; got "big"/],
      ['colour = red', 1, /unknown field "colour"/],
      ['(name:a', 1, /parenthesis/],
    ])('refuses %j saying what and where', async (filter, column, what) => {
      const { status, error } = await refusal(await call(h, 'GET', `/v1/files?filter=${encodeURIComponent(filter)}`));
      expect(status).toBe(400);
      expect(error).toMatch(new RegExp(`^Invalid filter at column ${column}: `));
      expect(error).toMatch(what);
    });
  });

  describe('query refusals', () => {
    it.each([
      ['limit=0', 'limit must be a whole number from 1 to 100; got "0".'],
      ['limit=101', 'limit must be a whole number from 1 to 100; got "101".'],
      ['limit=ten', 'limit must be a whole number from 1 to 100; got "ten".'],
      ['limit=2.5', 'limit must be a whole number from 1 to 100; got "2.5".'],
      ['order=up', 'order must be "asc" or "desc"; got "up".'],
      ['sort_by=name', 'sort_by must be one of created_at, filename, size; got "name".'],
      ['limit=1&limit=2', 'The query parameter limit is given more than once.'],
      ['pagination_token=', 'pagination_token is empty; omit it for the first page.'],
      ['pagination_token=file_a&after=file_b', 'Send pagination_token or after (its compatibility alias), not both.'],
      ['pagination_token=file_nope', 'pagination_token "file_nope" is not a token from an earlier page of your files; omit it for the first page.'],
    ])('%s', async (query, error) => {
      expect(await refusal(await call(h, 'GET', `/v1/files?${query}`))).toEqual({ status: 400, error });
    });

    it("refuses another team's file id as a token", async () => {
      expect((await call(h, 'GET', `/v1/files?after=${files[0].id}`, undefined, OTHER_KEY)).status).toBe(400);
    });
  });
});
