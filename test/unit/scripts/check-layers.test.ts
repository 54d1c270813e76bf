import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLayers, findImports } from '../../../scripts/check-layers.mjs';

/** A small tree: each file either obeys or breaks one rule. */
const FIXTURE: Record<string, string> = {
  'shared/ok.ts': "import { z } from 'zod';\nimport { a } from './other';\nexport const x = z;",
  'shared/other.ts': 'export const a = 1;',
  'shared/uses-node.ts': "import { readFileSync } from 'node:fs';",
  'shared/uses-main.ts': "import type { Host } from '../main/host/host';",
  'renderer/src/ok.ts': "import { a } from '@shared/other';\nimport type {} from '../../preload/api';\nimport { ref } from 'vue';",
  'renderer/src/uses-main.ts': "\n\nimport { createHost } from '../../main/host/host';",
  'renderer/src/View.vue': "<script setup lang=\"ts\">\nimport { ipcRenderer } from 'electron';\n</script>",
  'renderer/src/uses-fs.ts': "const fs = await import('fs');",
  'renderer/src/uses-preload.ts': "import { createIpcTransport } from '../../preload/ipc-transport';",
  'preload/index.ts': "import { contextBridge } from 'electron';\nimport { x } from '../shared/ok';",
  'preload/bad.ts': "import { join } from 'node:path';",
  'main/electron/ok.ts': "import { app } from 'electron';\nimport { createHost } from '../host/host';",
  'main/host/uses-electron.ts': "import { ipcMain } from 'electron';",
  'main/host/server.ts': "import { WebSocketServer } from 'ws';",
  'main/services/uses-ws.ts': "import WebSocket from 'ws';",
  'main/services/uses-undici.ts': "export { request } from 'undici';",
  'main/api/ok.ts': "import { Pool } from 'undici';\nimport WebSocket from 'ws';",
  'main/api/uses-store.ts': "import { openDatabase } from '../store/db';",
  'main/sandbox/uses-api.ts': "import { client } from '../api/ok';",
  'main/sandbox/ok.ts': "import { createServer } from 'node:http';\nimport { LIMITS } from '../../shared/other';",
  'main/store/uses-services.ts': "import { x } from '../services/uses-ws';",
  'main/commented.ts': "// import { app } from 'electron';\n/* import 'undici' */\nconst url = 'http://x'; // import 'ws'",
};

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'wb-layers-'));
  for (const [path, text] of Object.entries(FIXTURE)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('check-layers', () => {
  describe('checkLayers()', () => {
    it('reports each broken rule with file and line, and nothing for files that obey', () => {
      const found = checkLayers(root)
        .map((v) => `${v.file}:${v.line} ${v.rule}`)
        .sort();
      expect(found).toEqual(
        [
          'main/api/uses-store.ts:1 main/api never imports main/store',
          'main/host/uses-electron.ts:1 only main/electron imports electron',
          'main/sandbox/uses-api.ts:1 main/sandbox imports only shared/ and itself',
          'main/services/uses-undici.ts:1 only main/api imports undici',
          'main/services/uses-ws.ts:1 only main/api (client), main/host and main/sandbox (servers) import ws',
          'main/store/uses-services.ts:1 main/store imports only shared/ and itself',
          'preload/bad.ts:1 preload/ imports only shared/ and electron',
          'renderer/src/View.vue:2 only main/electron and preload/ import electron',
          'renderer/src/uses-fs.ts:1 renderer/ imports no Node built-ins',
          'renderer/src/uses-main.ts:3 renderer/ never imports main/',
          'renderer/src/uses-preload.ts:1 renderer/ imports nothing of preload/ but its type declarations',
          'shared/uses-main.ts:1 shared/ imports only shared/ and zod',
          'shared/uses-node.ts:1 shared/ imports no Node built-ins',
        ].sort(),
      );
    });
  });

  describe('findImports()', () => {
    it('finds multi-line, re-export, dynamic and require imports but not commented ones', () => {
      const source = "import {\n  a,\n} from 'x';\nexport * from './y';\n// import 'no'\nconst z = require('z');\nawait import('w');";
      expect(findImports(source)).toEqual([
        { specifier: 'x', line: 3 },
        { specifier: './y', line: 4 },
        { specifier: 'z', line: 6 },
        { specifier: 'w', line: 7 },
      ]);
    });

    it('ignores import statements written as text inside strings (generated code), not the specifiers themselves', () => {
      const source = "const line = 'import OpenAI from \"openai\";';\nconst t = `import x from 'y'`;\nimport { a } from 'zod';";
      expect(findImports(source)).toEqual([{ specifier: 'zod', line: 3 }]);
    });
  });
});
