/**
 * The voice exporters' properties that hold for every endpoint and language (what they print is
 * run against the sandbox in test/integration/codegen/voice-*-execute.test.ts): the key is read
 * from the environment and never inlined, the connection's root replaces the recorded one, a
 * socket's root is the http one the environment takes, a redacted custom header is read from its
 * own variable, a recorded name cannot break out of a comment, and the SDK tabs say why not.
 */
import { describe, expect, it } from 'vitest';
import type { CapturedRequest } from '../../../../shared/contract/runs';
import { EXPORT_LANGS, type CodeExporter } from '../../../../shared/families/types';
import { VOICE_CODE } from '../../../../shared/codegen/voice';
import { socketTextChunks } from '../../../../shared/codegen/voice-tts-socket';
import { withSocketQuery } from '../../../../shared/codegen/voice-common';

const SECRET = 'sk-live-do-not-print-7f3a';
const HOST = '127.0.0.1:4010';
const headers = { authorization: `Bearer ${SECRET}`, 'x-upstream-token': '***' };

const cases: Array<[keyof typeof VOICE_CODE, CapturedRequest]> = [
  ['tts', { method: 'POST', url: `http://${HOST}/v1/tts`, headers, body: { text: 'Hi', language: 'en', output_format: { codec: 'wav' } } }],
  ['ttsSocket', { method: 'GET', url: `ws://${HOST}/v1/tts?voice=eve&language=en&codec=pcm&sample_rate=16000`, headers, body: { messages: [{ type: 'text.delta', delta: 'Hi ' }, { type: 'text.delta', delta: 'there' }, { type: 'text.done' }] } }],
  ['stt', { method: 'POST', url: `http://${HOST}/v1/stt`, headers, body: { multipart: [{ name: 'language', value: 'en' }, { name: 'file', filename: 'a\nrm -rf ~\n.wav', contentType: 'audio/wav', bytes: 9 }] } }],
  ['sttSocket', { method: 'GET', url: `ws://${HOST}/v1/stt?sample_rate=8000&encoding=mulaw`, headers, body: { filename: 'b\nrm -rf ~\n.ulaw' } }],
  ['voiceCreate', { method: 'POST', url: `http://${HOST}/v1/custom-voices`, headers, body: { multipart: [{ name: 'name', value: 'N' }, { name: 'file', filename: 'r.wav', contentType: 'audio/wav', bytes: 9 }] } }],
  ['voiceAudio', { method: 'GET', url: `http://${HOST}/v1/custom-voices/abc/audio`, headers, body: null }],
  ['json', { method: 'PATCH', url: `http://${HOST}/v1/custom-voices/abc`, headers, body: { tone: 'calm' } }],
];

function each(fn: (name: string, lang: string, code: string) => void): void {
  for (const [name, request] of cases) {
    for (const lang of EXPORT_LANGS) {
      const result = (VOICE_CODE[name] as CodeExporter)[lang](request, {});
      if ('code' in result) fn(name, lang, result.code);
    }
  }
}

describe('voice code export', () => {
  it('writes curl (REST only), Python and TypeScript, and says why not for the SDKs and a socket in curl', () => {
    for (const [name, request] of cases) {
      const socket = name.endsWith('Socket');
      for (const lang of EXPORT_LANGS) {
        const result = (VOICE_CODE[name] as CodeExporter)[lang](request, {});
        const expected = lang.endsWith('-sdk') || (socket && lang === 'curl') ? 'unsupported' : 'code';
        expect(Object.keys(result), `${name} ${lang}`).toEqual([expected]);
      }
    }
  });

  it('reads the key from the environment and never prints it; a redacted header comes from its own variable', () => {
    each((name, lang, code) => {
      expect(code, `${name} ${lang}`).not.toContain(SECRET);
      expect(code, `${name} ${lang}`).toContain('WORKBENCH_API_KEY');
      expect(code, `${name} ${lang}`).toContain('WORKBENCH_HEADER_X_UPSTREAM_TOKEN');
      expect(code, `${name} ${lang}`).not.toContain('***');
    });
  });

  it('takes another key variable, and the connection root in place of the recorded one', () => {
    for (const [name, request] of cases) {
      for (const lang of ['python', 'typescript'] as const) {
        const result = (VOICE_CODE[name] as CodeExporter)[lang](request, { apiKeyEnv: 'MY_VOICE_KEY', baseUrl: 'https://voice.example.test/v1' });
        if (!('code' in result)) throw new Error(result.unsupported);
        expect(result.code).toContain('MY_VOICE_KEY');
        expect(result.code).not.toContain('WORKBENCH_API_KEY');
        expect(result.code).toContain('"https://voice.example.test"');
        expect(result.code).not.toContain(HOST);
      }
    }
  });

  it('a socket snippet names the ws URL it opens, and defaults the base variable to the http root', () => {
    const result = VOICE_CODE.ttsSocket.typescript(cases[1]![1], {});
    if (!('code' in result)) throw new Error(result.unsupported);
    const top = result.code.split('\n');
    expect(top[0]).toBe(`// WebSocket ws://${HOST}/v1/tts?voice=eve&language=en&codec=pcm&sample_rate=16000`);
    expect(result.code).toContain(`default http://${HOST})`);
    expect(result.code).toContain(`|| "http://${HOST}").replace(/\\/+$/, "").replace(/^http/, "ws") + "/v1/tts?voice=eve`);
    expect(result.code).toContain('speech.pcm');
  });

  it('a recorded file name with line breaks stays inside comments and string literals', () => {
    each((name, lang, code) => {
      // curl's single-quoted shell words hold a line break literally (and safely): checked by sh below.
      if (lang === 'curl') return;
      expect(code.split('\n').map((l) => l.trim()), `${name} ${lang}`).not.toContain('rm -rf ~');
    });
  });

  it('curl: a file name with line breaks stays one single-quoted shell word', () => {
    const result = VOICE_CODE.stt.curl(cases[2]![1], {});
    if (!('code' in result)) throw new Error(result.unsupported);
    expect(result.code).toContain(`-F 'file=@"a\nrm -rf ~\n.wav";type=audio/wav'`);
  });

  it('a live transcription loop takes its encoding, rate and channels from the recorded query', () => {
    const code = (q: string): string => {
      const result = VOICE_CODE.sttSocket.python({ ...cases[3]![1], url: `ws://${HOST}/v1/stt?${q}` }, {});
      if (!('code' in result)) throw new Error(result.unsupported);
      return result.code;
    };
    expect(code('sample_rate=8000&encoding=mulaw')).toContain('ENCODING, RATE, CHANNELS, DONES = "mulaw", 8000, 1, 1');
    expect(code('encoding=alaw&sample_rate=16000&multichannel=true&channels=3&keyterm=a%20b')).toContain('ENCODING, RATE, CHANNELS, DONES = "alaw", 16000, 3, 3');
    expect(code('channels=2')).toContain('ENCODING, RATE, CHANNELS, DONES = "pcm", 16000, 2, 1');
  });

  it('a socket run whose query was recorded in the body gets it back in the URL; one with a query keeps it', () => {
    const bare = { method: 'GET', url: `ws://${HOST}/v1/stt`, headers: {}, body: null };
    expect(withSocketQuery({ ...bare, body: JSON.stringify({ sample_rate: 8000, multichannel: true, keyterm: ['a b', 'c'] }) }).url).toBe(`ws://${HOST}/v1/stt?sample_rate=8000&multichannel=true&keyterm=a%20b&keyterm=c`);
    expect(withSocketQuery({ ...bare, body: { query: { encoding: 'alaw' } } }).url).toBe(`ws://${HOST}/v1/stt?encoding=alaw`);
    expect(withSocketQuery({ ...bare, body: { filename: 'x.wav', language: 'en' } }).url).toBe(`ws://${HOST}/v1/stt?language=en`);
    expect(withSocketQuery({ ...bare, url: `ws://${HOST}/v1/tts?voice=rex`, body: { text: 'Hi', voice: 'eve' } }).url).toBe(`ws://${HOST}/v1/tts?voice=rex`);
    expect(withSocketQuery(bare).url).toBe(`ws://${HOST}/v1/stt`);
  });

  it('keeps the text chunks a socket session sent, else the whole text, else says where to put it', () => {
    expect(socketTextChunks(cases[1]![1].body)).toEqual(['Hi ', 'there']);
    expect(socketTextChunks({ text: 'Whole text.' })).toEqual(['Whole text.']);
    expect(socketTextChunks(null)).toEqual(['Put the text to speak here.']);
  });
});
