/**
 * Code export for a recorded speech run. The REST request is sent again by curl as recorded (the
 * answer is JSON with base64 `audio`, or the audio itself: `-o speech.<codec>` keeps either).
 * Python and TypeScript programs (the REST call and the WebSocket loop) belong to
 * shared/codegen/voice-*.ts, written by another part of this issue: until they are wired here,
 * those tabs say so rather than print something that has not been run.
 */
import type { CapturedRequest } from '../../contract/runs';
import type { CodeExporter, ExportResult } from '../types';
import { toCurl } from '../../codegen/curl';

const LATER = 'Python and TypeScript export of speech runs is not in this build yet; use the curl tab for the REST request.';

export function speechExporter(kind: 'rest' | 'stream'): CodeExporter {
  const later = (): ExportResult => ({ unsupported: kind === 'stream' ? 'Code export of a streaming (WebSocket) speech run is not in this build yet.' : LATER });
  return {
    curl: (request: CapturedRequest, opts) =>
      kind === 'stream'
        ? { unsupported: 'curl cannot hold a WebSocket conversation; export of streaming speech runs is not in this build yet.' }
        : { code: `${toCurl(request, opts)} \\\n  -o speech.out\n# The answer is JSON (base64 "audio", "audio_timestamps") with with_timestamps, else the audio bytes (see Content-Type).` },
    python: later,
    'python-sdk': later,
    typescript: later,
    'typescript-sdk': later,
  };
}
