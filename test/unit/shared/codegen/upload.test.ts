import { describe, expect, it } from 'vitest';
import { EXPORT_LANGS, exportCode } from '../../../../shared/codegen/export';
import { isUpload } from '../../../../shared/families/files/codegen';
import type { CapturedRequest } from '../../../../shared/contract/runs';
import { BASE, codeOf, requests, SECRET } from './fixtures';

const upload = (expires: boolean, headers: Record<string, string> = {}): CapturedRequest => ({
  method: 'POST',
  url: `${BASE}/v1/files`,
  headers: { accept: 'application/json', 'content-type': 'multipart/form-data', authorization: `Bearer ${SECRET}`, ...headers },
  body: {
    multipart: [
      ...(expires ? [{ name: 'expires_after', value: '7200' }] : []),
      { name: 'file', filename: "it's a report.pdf", contentType: 'application/pdf', bytes: 1234 },
    ],
  },
});

describe('codegen/upload', () => {
  it('recognises a recorded upload and nothing else', () => {
    expect(isUpload(upload(true))).toBe(true);
    expect(Object.values(requests).some(isUpload)).toBe(false);
  });

  it('writes every language for an upload, reading the key from the environment and never the secret', () => {
    for (const lang of EXPORT_LANGS) {
      const code = codeOf(exportCode(upload(true), { lang }));
      expect(code).toContain('WORKBENCH_API_KEY');
      expect(code).not.toContain(SECRET);
      expect(code).toContain('/v1/files');
    }
  });

  it('curl: the expiry as a literal form string before the file part, quoted for the shell', () => {
    const code = codeOf(exportCode(upload(true, { 'x-svc-conv-id': 'conv-1' }), { lang: 'curl' }));
    expect(code).toBe(
      [
        `# POST ${BASE}/v1/files`,
        '# Set first:',
        '#   export WORKBENCH_API_KEY=<your API key>',
        `# Optional: WORKBENCH_BASE_URL, the service's root URL without /v1 (default ${BASE}).`,
        "# Run in the folder holding it's a report.pdf",
        `curl -X POST "\${WORKBENCH_BASE_URL:-${BASE}}/v1/files" -sS \\`,
        '  -H "Authorization: Bearer $WORKBENCH_API_KEY" \\',
        "  -H 'x-svc-conv-id: conv-1' \\",
        "  --form-string 'expires_after=7200' \\",
        "  -F 'file=@\"it'\\''s a report.pdf\";type=application/pdf'",
      ].join('\n'),
    );
  });

  it('curl and Python send a name with quotes, a semicolon or a newline whole, and keep it out of the code', () => {
    const named = (filename: string): CapturedRequest => ({ ...upload(false), body: { multipart: [{ name: 'file', filename, contentType: 'text/plain', bytes: 2 }] } });
    const curl = codeOf(exportCode(named('résumé "final";v2\\.txt'), { lang: 'curl' }));
    // Quoted for curl's -F (so `;` does not end the path), then for the shell.
    expect(curl).toContain(`-F 'file=@"résumé \\"final\\";v2\\\\.txt";type=text/plain'`);
    const py = codeOf(exportCode(named('a "b".txt'), { lang: 'python' }));
    expect(py).toContain('filename = os.path.basename(path).replace(\'"\', "%22")');
    for (const lang of EXPORT_LANGS) {
      const code = codeOf(exportCode(named('x\nrm -rf ~.txt'), { lang }));
      // The comment naming the file stays one line; only curl's single-quoted argument may hold the newline.
      expect(code).toContain('holding x rm -rf ~.txt');
      const loose = code.split('\n').filter((line) => line.startsWith('rm -rf'));
      expect(loose).toEqual(lang === 'curl' ? ['rm -rf ~.txt";type=text/plain\''] : []);
    }
  });

  it('SDKs: files.create with the expiry in the SDK\'s own form, before the file, and only when recorded', () => {
    const ts = codeOf(exportCode(upload(true), { lang: 'typescript-sdk' }));
    expect(ts).toContain('await client.files.create({');
    expect(ts.indexOf('expires_after: { anchor: "created_at", seconds: 7200 }')).toBeLessThan(ts.indexOf('file: fs.createReadStream("it\'s a report.pdf")'));
    expect(ts).toContain(`baseURL: (process.env["WORKBENCH_BASE_URL"] || "${BASE}").replace(/\\/+$/, "") + "/v1"`);
    const py = codeOf(exportCode(upload(true), { lang: 'python-sdk' }));
    expect(py).toContain('client.files.create(');
    expect(py).toContain('expires_after={"anchor": "created_at", "seconds": 7200}');
    expect(codeOf(exportCode(upload(false), { lang: 'python-sdk' }))).not.toContain('expires_after');
  });
});
