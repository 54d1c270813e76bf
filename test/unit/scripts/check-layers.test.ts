import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLayers } from '../../../scripts/check-layers.mjs';

/** A small tree: each file either obeys or breaks one rule of .dependency-cruiser.cjs. */
const FIXTURE: Record<string, string> = {
  'tsconfig.web.json': JSON.stringify({ compilerOptions: { baseUrl: '.', paths: { '@/*': ['renderer/src/*'], '@shared/*': ['shared/*'] } } }),
  'shared/ok.ts': "import { z } from 'zod';\nimport { a } from './other';\nexport const x = z;\nexport const line = 'import OpenAI from \"openai\";';",
  'shared/other.ts': 'export const a = 1;',
  'shared/uses-node.ts': "import { readFileSync } from 'node:fs';",
  'shared/uses-main.ts': "import type { Host } from '../main/host/host';",
  'shared/cycle-a.ts': "import { b } from './cycle-b';\nexport const a = () => b;",
  'shared/cycle-b.ts': "import { a } from './cycle-a';\nexport const b = () => a;",
  'shared/types-a.ts': "import type { B } from './types-b';\nexport type A = { b?: B };",
  'shared/types-b.ts': "import type { A } from './types-a';\nexport type B = { a?: A };",
  'renderer/src/ok.ts': "import { a } from '@shared/other';\nimport type {} from '../../preload/api';\nimport Ok from './Ok.vue';\nexport { a, Ok };",
  'renderer/src/Ok.vue': '<script setup lang="ts">\nimport { a } from \'@shared/other\';\n</script>',
  'renderer/src/uses-main.ts': "\n\nimport { createHost } from '../../main/host/host';",
  'renderer/src/View.vue': "<script setup lang=\"ts\">\nimport { ipcRenderer } from 'electron';\n</script>",
  'renderer/src/uses-fs.ts': "const fs = await import('fs');",
  'renderer/src/uses-preload.ts': "import { createIpcTransport } from '../../preload/ipc-transport';",
  'renderer/src/typo.ts': "import { a } from '@shared/otter';",
  // Inside renderer/src: views -> stores -> bridge, lib pure underneath.
  'renderer/src/main.ts': "import { createWsTransport } from './bridge/ws';\nimport App from './App.vue';\nimport { provideWorkbench } from './api';",
  'renderer/src/App.vue': "<script setup lang=\"ts\">\nimport Home from './views/Home.vue';\n</script>",
  'renderer/src/api.ts': 'export type LinkStatus = string;\nexport const useWorkbench = () => 1;',
  'renderer/src/views/Home.vue': "<script setup lang=\"ts\">\nimport Card from '../components/Card.vue';\nimport { useThings } from '../stores/things';\nimport { useThing } from '../composables/use-thing';\nimport { format } from '../lib/format';\n</script>",
  'renderer/src/components/Card.vue': "<script setup lang=\"ts\">\nimport { useThings } from '../stores/things';\nimport { useThing } from '../composables/use-thing';\nimport { chooseFiles } from '../bridge/files';\nimport { format } from '../lib/format';\n</script>",
  'renderer/src/components/uses-view.ts': "import Home from '../views/Home.vue';",
  'renderer/src/stores/things.ts': "import { useWorkbench } from '../api';\nimport { useThing } from '../composables/use-thing';\nimport { format } from '../lib/format';\nexport const useThings = () => [useWorkbench, useThing, format];",
  'renderer/src/stores/uses-component.ts': "import Card from '../components/Card.vue';",
  'renderer/src/stores/uses-router.ts': "import { router } from '../router';",
  'renderer/src/router.ts': "import Home from './views/Home.vue';\nexport const router = Home;",
  'renderer/src/composables/use-thing.ts': "import { format } from '../lib/format';\nexport const useThing = () => format;",
  'renderer/src/composables/uses-view.ts': "import Home from '../views/Home.vue';",
  'renderer/src/bridge/ws.ts': "import { format } from '../lib/format';\nexport const createWsTransport = format;",
  'renderer/src/bridge/files.ts': "import { format } from '../lib/format';\nexport const chooseFiles = format;",
  'renderer/src/bridge/uses-store.ts': "import { useThings } from '../stores/things';",
  'renderer/src/bridge/uses-api.ts': "import { useWorkbench } from '../api';",
  'renderer/src/lib/format.ts': "import type { LinkStatus } from '../api';\nexport const format = (s: LinkStatus) => s;",
  'renderer/src/lib/uses-store.ts': "import type { useThings } from '../stores/things';",
  'renderer/src/lib/uses-bridge.ts': "import { chooseFiles } from '../bridge/files';",
  'renderer/src/lib/uses-component.ts': "import Card from '@/components/Card.vue';",
  'renderer/src/lib/uses-composable.ts': "import { useThing } from '../composables/use-thing';",
  'renderer/src/lib/uses-api.ts': "import { useWorkbench } from '../api';",
  'preload/api.d.ts': 'export {};',
  'preload/ipc-transport.ts': 'export const createIpcTransport = 1;',
  'preload/index.ts': "import { contextBridge } from 'electron';\nimport { x } from '../shared/ok';",
  'preload/bad.ts': "import { join } from 'node:path';",
  'main/app.ts': "import { createHost } from './host/host';",
  'main/electron/ok.ts': "import { app } from 'electron';\nimport { createHost } from '../host/host';\nimport '../app';",
  'main/host/host.ts': "import { chat } from '../services/chat';\nexport const createHost = chat;",
  'main/host/uses-electron.ts': "import { ipcMain } from 'electron';",
  'main/host/uses-app.ts': "import '../app';",
  'main/host/server.ts': "import { WebSocketServer } from 'ws';",
  'main/services/chat.ts': "import { client } from '../api/ok';\nimport { db } from '../store/db';\nexport const chat = [client, db];",
  'main/services/uses-host.ts': "import type { Host } from '../host/host';",
  'main/services/uses-ws.ts': "import WebSocket from 'ws';",
  'main/services/uses-undici.ts': "export { request } from 'undici';",
  'main/api/ok.ts': "import { Pool } from 'undici';\nimport WebSocket from 'ws';\nexport const client = 1;",
  'main/api/uses-store.ts': "import { db } from '../store/db';",
  'main/api/uses-jobs.ts': "import { poll } from '../jobs/poller';",
  'main/jobs/poller.ts': "import { client } from '../api/ok';\nimport { db } from '../store/db';\nexport const poll = 1;",
  'main/jobs/uses-services.ts': "import { chat } from '../services/chat';",
  'main/store/db.ts': "import Database from 'better-sqlite3';\nexport const db = 1;",
  'main/sandbox/uses-api.ts': "import { client } from '../api/ok';",
  'main/media/ok.ts': "import { WebSocketServer } from 'ws';\nimport { tokensMatch } from '../host/token';\nimport { a } from '../../shared/other';",
  'main/host/token.ts': 'export const tokensMatch = 1;',
  'main/media/uses-host.ts': "import { createHost } from '../host/host';",
  'main/sandbox/ok.ts': "import { createServer } from 'node:http';\nimport { WebSocketServer } from 'ws';\nimport { a } from '../../shared/other';",
  'main/store/uses-services.ts': "import { x } from '../services/uses-ws';",
  'main/audio/ok.ts': "import naudiodon from 'naudiodon';\nexport const n = naudiodon;",
  'main/services/uses-naudiodon.ts': "const n = await import('naudiodon');",
  'shared/audio/ok.ts': "import * as g711 from 'alawmulaw';\nimport { a } from '../other';\nexport const x = [g711, a];",
  'shared/uses-alawmulaw.ts': "import * as g711 from 'alawmulaw';",
  'main/commented.ts': "// import { app } from 'electron';\n/* import 'undici' */\nconst url = 'http://x'; // import 'ws'",
};

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'wb-layers-'));
  for (const [path, text] of Object.entries(FIXTURE)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  // The packages the rules name (zod, electron, ws, undici) must resolve, as in the repo.
  symlinkSync(resolve('node_modules'), join(root, 'node_modules'), 'dir');
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('check-layers (dependency-cruiser rules)', () => {
  // A cycle is reported once, at the module where dependency-cruiser enters it.
  it('reports each broken rule with the importing file, and nothing for files that obey', async () => {
    const found = (await checkLayers(root)).map((v) => `${v.from} ${v.rule}`).sort();
    expect(found).toEqual(
      [
        'main/api/uses-jobs.ts api-below-services',
        'main/api/uses-store.ts api-below-services',
        'main/api/uses-store.ts api-not-store',
        'main/host/uses-app.ts only-shells-import-the-composition-root',
        'main/host/uses-electron.ts electron-only-in-main-electron-and-preload',
        'main/jobs/uses-services.ts jobs-only-api-and-store',
        'main/jobs/uses-services.ts nothing-imports-upwards-into-services',
        'main/sandbox/uses-api.ts sandbox-stands-apart',
        'main/media/uses-host.ts media-process-stands-apart',
        'main/services/uses-host.ts services-not-host',
        'main/services/uses-naudiodon.ts naudiodon-only-in-audio',
        'main/services/uses-undici.ts undici-only-in-api',
        'main/services/uses-ws.ts ws-only-in-api-host-sandbox',
        'main/store/uses-services.ts nothing-imports-upwards-into-services',
        'main/store/uses-services.ts store-only-shared-and-itself',
        'preload/bad.ts preload-only-shared-and-electron',
        'renderer/src/View.vue electron-only-in-main-electron-and-preload',
        'renderer/src/bridge/uses-api.ts renderer-bridge-at-the-bottom',
        'renderer/src/bridge/uses-store.ts renderer-bridge-at-the-bottom',
        'renderer/src/components/uses-view.ts renderer-components-below-views',
        'renderer/src/composables/uses-view.ts renderer-composables-below-views',
        'renderer/src/lib/uses-api.ts renderer-lib-api-types-only',
        'renderer/src/lib/uses-bridge.ts renderer-lib-pure',
        'renderer/src/lib/uses-component.ts renderer-lib-pure',
        'renderer/src/lib/uses-composable.ts renderer-lib-pure',
        'renderer/src/lib/uses-store.ts renderer-lib-pure',
        'renderer/src/stores/uses-component.ts renderer-stores-below-views',
        'renderer/src/stores/uses-router.ts renderer-stores-below-views',
        'renderer/src/typo.ts not-to-unresolvable',
        'renderer/src/uses-fs.ts renderer-no-node-builtins',
        'renderer/src/uses-main.ts renderer-not-main',
        'renderer/src/uses-preload.ts renderer-preload-types-only',
        'shared/cycle-a.ts no-runtime-cycles',
        'shared/uses-alawmulaw.ts shared-only-shared-and-zod',
        'shared/uses-main.ts shared-only-shared-and-zod',
        'shared/uses-node.ts shared-no-node-builtins',
      ].sort(),
    );
  });

  it('says which rule, in words, and what was imported', async () => {
    const v = (await checkLayers(root)).find((x) => x.from === 'renderer/src/uses-main.ts');
    expect(v).toEqual({ from: 'renderer/src/uses-main.ts', to: '../../main/host/host', rule: 'renderer-not-main', comment: 'renderer/ never imports main/' });
  });
});
