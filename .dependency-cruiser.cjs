// The layer rules of DESIGN.md ("The house"), checked on resolved imports (TypeScript paths, .vue
// files, type-only imports included) by dependency-cruiser: `node scripts/check-layers.mjs`, run by
// `npm run lint`. Arrows only point down: renderer, preload and main -> shared; inside the
// renderer, views -> stores -> bridge, with lib (pure helpers) underneath; inside main, electron ->
// host -> services -> {api, store, jobs} -> shared, jobs -> {api, store}; the sandbox stands apart.
// Tests are not checked. test/unit/scripts/check-layers.test.ts proves each rule fires on a
// violating fixture.

/** `to` paths under these folders, as a regex alternation. */
const under = (...dirs) => `^(${dirs.join('|')})/`;

/**
 * `to` paths inside renderer/src: folders end in `/`, files in `$`. A family's folder
 * (renderer/src/families/<f>/) has the same layers inside it (views, stores, components, lib).
 */
const renderer = (...entries) => [`^renderer/src/(${entries.join('|')})`, `^renderer/src/families/[^/]+/(${entries.join('|')})`];
/** `from` paths: a layer folder of renderer/src or of a family's folder. */
const rendererLayer = (folder) => [`^renderer/src/${folder}/`, `^renderer/src/families/[^/]+/${folder}/`];
/** The renderer's shell: it builds the app from views, stores and the bridge. */
const SHELL = ['main\\.ts$', 'App\\.vue$', 'router\\.ts$'];
/** Everything in renderer/src that lib (pure helpers) must not import. */
const RENDERER_ABOVE_LIB = renderer('stores/', 'bridge/', 'components/', 'composables/', 'views/', ...SHELL);

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    // shared/: pure TypeScript, imported by all three sides.
    { name: 'shared-only-shared-and-zod', comment: 'shared/ imports only shared/ and zod', severity: 'error',
      from: { path: '^shared/', pathNot: '^shared/audio/' }, to: { pathNot: ['^shared/', '(^|/)node_modules/zod/'], dependencyTypesNot: ['core'] } },
    { name: 'shared-audio-only-shared-zod-and-g711', comment: 'shared/audio imports only shared/, zod and alawmulaw (a pure G.711 codec)', severity: 'error',
      from: { path: '^shared/audio/' }, to: { pathNot: ['^shared/', '(^|/)node_modules/zod/', '(^|/)node_modules/alawmulaw/'], dependencyTypesNot: ['core'] } },
    { name: 'shared-no-node-builtins', comment: 'shared/ imports no Node built-ins', severity: 'error',
      from: { path: '^shared/' }, to: { dependencyTypes: ['core'] } },

    // renderer/: the page. Talks to main only through the contract.
    { name: 'renderer-not-main', comment: 'renderer/ never imports main/', severity: 'error',
      from: { path: '^renderer/' }, to: { path: '^main/' } },
    { name: 'renderer-preload-types-only', comment: 'renderer/ imports nothing of preload/ but its type declarations', severity: 'error',
      from: { path: '^renderer/' }, to: { path: '^preload/', pathNot: '^preload/api\\.d\\.ts$' } },
    { name: 'renderer-no-node-builtins', comment: 'renderer/ imports no Node built-ins', severity: 'error',
      from: { path: '^renderer/' }, to: { dependencyTypes: ['core'] } },
    { name: 'electron-only-in-main-electron-and-preload', comment: 'only main/electron and preload/ import electron', severity: 'error',
      from: { pathNot: under('main/electron', 'preload') }, to: { path: '(^|/)node_modules/electron/' } },

    // Inside renderer/src (DESIGN.md "The house"): views -> stores -> bridge, lib pure underneath.
    // "The shell" is main.ts, App.vue and router.ts, which wire views, stores and the bridge together.
    { name: 'renderer-lib-pure', comment: 'renderer/src/lib holds pure helpers: it imports no stores, bridge, components, composables, views or shell', severity: 'error',
      from: { path: rendererLayer('lib') }, to: { path: RENDERER_ABOVE_LIB } },
    { name: 'renderer-lib-api-types-only', comment: 'renderer/src/lib names only types of renderer/src/api.ts (calling the injected api is not pure)', severity: 'error',
      from: { path: rendererLayer('lib') }, to: { path: '^renderer/src/api\\.ts$', dependencyTypesNot: ['type-only'] } },
    { name: 'renderer-stores-below-views', comment: 'renderer/src/stores never import views, components or the shell', severity: 'error',
      from: { path: rendererLayer('stores') }, to: { path: renderer('views/', 'components/', ...SHELL) } },
    { name: 'renderer-components-below-views', comment: 'renderer/src/components never import views or the shell', severity: 'error',
      from: { path: rendererLayer('components') }, to: { path: renderer('views/', ...SHELL) } },
    { name: 'renderer-composables-below-views', comment: 'renderer/src/composables never import views, components or the shell', severity: 'error',
      from: { path: rendererLayer('composables') }, to: { path: renderer('views/', 'components/', ...SHELL) } },
    { name: 'renderer-bridge-at-the-bottom', comment: 'renderer/src/bridge imports none of stores, composables, components, views, the shell or api.ts', severity: 'error',
      from: { path: rendererLayer('bridge') }, to: { path: renderer('stores/', 'composables/', 'components/', 'views/', 'api\\.ts$', ...SHELL) } },

    // preload/: contextBridge only.
    { name: 'preload-only-shared-and-electron', comment: 'preload/ imports only shared/ and electron', severity: 'error',
      from: { path: '^preload/' }, to: { pathNot: ['^shared/', '^preload/', '(^|/)node_modules/electron/'] } },

    // main/: Node side.
    { name: 'main-not-renderer', comment: 'main/ never imports renderer/', severity: 'error',
      from: { path: '^main/' }, to: { path: '^renderer/' } },
    { name: 'main-not-preload', comment: 'main/ never imports preload/', severity: 'error',
      from: { path: '^main/' }, to: { path: '^preload/' } },
    { name: 'main-electron-only-from-itself', comment: 'only main/electron imports main/electron', severity: 'error',
      from: { path: '^main/', pathNot: '^main/electron/' }, to: { path: '^main/electron/' } },
    { name: 'naudiodon-only-in-audio', comment: 'only main/audio imports naudiodon (native audio devices)', severity: 'error',
      from: { pathNot: '^main/audio/' }, to: { path: '(^|/)node_modules/naudiodon/' } },
    { name: 'undici-only-in-api', comment: 'only main/api imports undici', severity: 'error',
      from: { pathNot: '^main/api/' }, to: { path: '(^|/)node_modules/undici/' } },
    { name: 'ws-only-in-api-host-sandbox', comment: 'only main/api (client), main/host, main/sandbox and main/media (servers) import ws', severity: 'error',
      from: { pathNot: under('main/api', 'main/host', 'main/sandbox', 'main/media') }, to: { path: '(^|/)node_modules/ws/' } },
    // The media process (main/media) runs in its own process: it must not pull main's services,
    // store or shells in (no SQLite there); it may use shared/, main/audio, main/api and main/host/token.ts.
    { name: 'media-process-stands-apart', comment: 'main/media imports only shared/, main/audio, main/api (the service sockets of live sessions), main/host/token.ts, main/host/ws-mask.ts (its frame server unmasks word-wise) and itself', severity: 'error',
      from: { path: '^main/media/' }, to: { path: '^(main|renderer|preload)/', pathNot: ['^main/media/', '^main/audio/', '^main/api/', '^main/host/token\\.ts$', '^main/host/ws-mask\\.ts$'] } },
    { name: 'sandbox-stands-apart', comment: 'main/sandbox imports only shared/ and itself', severity: 'error',
      from: { path: '^main/sandbox/' }, to: { path: '^(main|renderer|preload)/', pathNot: '^main/sandbox/' } },
    { name: 'store-only-shared-and-itself', comment: 'main/store imports only shared/ and itself', severity: 'error',
      from: { path: '^main/store/' }, to: { path: '^(main|renderer|preload)/', pathNot: '^main/store/' } },
    { name: 'api-not-store', comment: 'main/api never imports main/store (services persist)', severity: 'error',
      from: { path: '^main/api/' }, to: { path: '^main/store/' } },
    { name: 'api-below-services', comment: 'main/api imports only shared/ and itself', severity: 'error',
      from: { path: '^main/api/' }, to: { path: '^(main|renderer|preload)/', pathNot: '^main/api/' } },
    { name: 'jobs-only-api-and-store', comment: 'main/jobs imports only main/api, main/store and shared/', severity: 'error',
      from: { path: '^main/jobs/' }, to: { path: '^(main|renderer|preload)/', pathNot: under('main/jobs', 'main/api', 'main/store') } },
    { name: 'services-not-host', comment: 'main/services never import main/host (the host calls services, not back)', severity: 'error',
      from: { path: '^main/services/' }, to: { path: '^main/host/' } },
    { name: 'families-below-host', comment: 'main/families never import main/host or main/electron (electron -> host -> families -> services)', severity: 'error',
      from: { path: '^main/families/' }, to: { path: under('main/host', 'main/electron', 'main/browser') } },
    { name: 'nothing-imports-upwards-into-families', comment: 'only the composition root imports main/families (services, live, jobs, api, store and audio sit below)', severity: 'error',
      from: { path: '^main/', pathNot: ['^main/families/', '^main/app\\.ts$'] }, to: { path: '^main/families/' } },
    { name: 'nothing-imports-upwards-into-services', comment: 'main/api, store and jobs never import main/services', severity: 'error',
      from: { path: under('main/api', 'main/store', 'main/jobs') }, to: { path: '^main/services/' } },
    { name: 'only-shells-import-the-composition-root', comment: 'only the shells (main/electron, main/browser) import main/app.ts', severity: 'error',
      from: { path: '^main/', pathNot: under('main/electron', 'main/browser') }, to: { path: '^main/app\\.ts$' } },

    { name: 'no-runtime-cycles', comment: 'modules import each other at run time (type-only cycles are fine)', severity: 'error',
      from: {}, to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } } },

    // Every import must resolve (a typo'd path or a package missing from package.json).
    { name: 'not-to-unresolvable', comment: 'import does not resolve to a file or an installed package', severity: 'error',
      from: {}, to: { couldNotResolve: true } },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Keep package paths as node_modules/<name>/... even when node_modules is a symlink.
    preserveSymlinks: true,
    exclude: { path: '^out/' },
    // Type-only imports count: a layer must not even name another's types.
    tsPreCompilationDeps: true,
    // tsconfig.web.json carries the renderer's `@/` and `@shared/` paths.
    tsConfig: { fileName: 'tsconfig.web.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
      extensions: ['.ts', '.d.ts', '.vue', '.mjs', '.js', '.json'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
