// The log file: private, rotated by size, scoped, and never holding a secret.
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync, chmodSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLogger, type Logger } from '../../../../main/host/log-file';

let dir: string;
let logger: Logger | undefined;
const at = () => new Date(Date.UTC(2026, 0, 2, 3, 4, 5));

beforeEach(() => {
  dir = join(mkdtempSync(join(tmpdir(), 'wb-log-')), 'logs');
});

afterEach(() => {
  logger?.close();
  rmSync(join(dir, '..'), { recursive: true, force: true });
});

const read = (name = 'workbench.log') => readFileSync(join(dir, name), 'utf8');

describe('log-file', () => {
  describe('createLogger()', () => {
    it('writes levelled, scoped lines to <dir>/workbench.log', () => {
      logger = createLogger({ dir, stderr: false, now: at });
      logger.info('started');
      logger.scope('host').warn('slow');
      logger.scope('host').scope('ws').error('closed');
      logger.line('[sandbox] listening');
      expect(logger.path).toBe(join(dir, 'workbench.log'));
      expect(read()).toBe(
        [
          '2026-01-02T03:04:05.000Z INFO started',
          '2026-01-02T03:04:05.000Z WARN [host] slow',
          '2026-01-02T03:04:05.000Z ERROR [host/ws] closed',
          '2026-01-02T03:04:05.000Z INFO [sandbox] listening',
          '',
        ].join('\n'),
      );
    });

    it('makes the file 0600 and the folder 0700, even a file an older version left open to others', () => {
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'workbench.log'), 'old\n');
      chmodSync(join(dir, 'workbench.log'), 0o644);
      logger = createLogger({ dir, stderr: false });
      logger.info('x');
      expect(statSync(join(dir, 'workbench.log')).mode & 0o777).toBe(0o600);
      expect(read().startsWith('old\n')).toBe(true);
      rmSync(dir, { recursive: true });
      logger.close();
      logger = createLogger({ dir, stderr: false });
      expect(statSync(dir).mode & 0o777).toBe(0o700);
    });

    it('rotates by size, keeping `keep` old files with the newest as .1', () => {
      logger = createLogger({ dir, stderr: false, maxBytes: 200, keep: 2, now: at });
      for (let i = 0; i < 12; i++) logger.info(`line ${String(i).padStart(2, '0')} ${'x'.repeat(40)}`);
      expect(readdirSync(dir).sort()).toEqual(['workbench.log', 'workbench.log.1', 'workbench.log.2']);
      for (const name of readdirSync(dir)) {
        expect(statSync(join(dir, name)).size).toBeLessThanOrEqual(200);
        expect(statSync(join(dir, name)).mode & 0o777).toBe(0o600);
      }
      // Each file holds 2 lines of 79 bytes: the newest two in the live file, older ones behind.
      expect(read()).toContain('line 11');
      expect(read('workbench.log.1')).toContain('line 09');
      expect(read('workbench.log.2')).toContain('line 07');
      expect([read(), read('workbench.log.1'), read('workbench.log.2')].join('')).not.toContain('line 05');
    });

    it('masks Bearer tokens, sk- keys, the page token and known secrets before writing', () => {
      logger = createLogger({ dir, stderr: false, secrets: ['correct-horse-battery'] });
      logger.info('GET / Authorization: Basic dXNlcjpwYXNz');
      logger.info('retrying with bearer abc.DEF-123_x');
      logger.info('key sk-proj-AbCdEf0123456789 refused');
      logger.info('open http://127.0.0.1:5000/#token=Zm9vYmFyYmF6');
      logger.info('{"x-api-key":"xai-abcdefabcdef"} and correct-horse-battery');
      logger.addSecret('my-own-secret-token');
      logger.scope('api').error('failed with my-own-secret-token in it');
      const text = read();
      for (const secret of ['dXNlcjpwYXNz', 'abc.DEF-123_x', 'AbCdEf0123456789', 'Zm9vYmFyYmF6', 'xai-abcdefabcdef', 'correct-horse-battery', 'my-own-secret-token']) {
        expect(text).not.toContain(secret);
      }
      expect(text).toContain('Authorization: [redacted]');
      expect(text).toContain('bearer [redacted]');
      expect(text).toContain('sk-[redacted] refused');
      expect(text).toContain('#token=[redacted]');
      expect(text).toContain('failed with [redacted] in it');
    });

    it('masks a known secret in its encoded forms too (base64, base64url, Basic auth, URL-encoded)', () => {
      const key = 'svc-key/With+Symbols0123';
      const b64 = (s: string): string => Buffer.from(s).toString('base64');
      const forms = [b64(key), Buffer.from(key).toString('base64url'), b64(`user:${key}`), encodeURIComponent(key)];
      logger = createLogger({ dir, stderr: false });
      logger.addSecret(key);
      for (const form of forms) logger.info(`echoed: ${form} end`);
      const text = read();
      for (const form of forms) expect(text).not.toContain(form);
      expect(text.match(/echoed: .*\[redacted\]/g)).toHaveLength(forms.length);
    });

    it('goes on writing to stderr alone after close', () => {
      logger = createLogger({ dir, stderr: false });
      logger.info('before');
      logger.close();
      logger.info('after');
      expect(read()).toContain('before');
      expect(read()).not.toContain('after');
      expect(existsSync(join(dir, 'workbench.log.1'))).toBe(false);
    });
  });
});
