// End-to-end: the built app in browser mode, driven in Debian's Chromium by playwright-core.
//
// Two at a time, then the real-time ones one at a time: each file starts its own app (any free
// port; its embedded sandbox falls back from 4010 to any free port), its own sandbox (port 0),
// Chromium (its own profile) and temporary data folders, so two files cannot collide. Files that
// pace audio in real time (Chromium's fake microphone or ALSA's file device feeding a call or a
// live session, SIP call timing, playback followed as it plays) stay in their own project, run
// after the others with one worker (sequence.groupOrder 1), as the whole suite used to, so that
// they do not share the two cores with another app and browser (as vitest.config.ts does for the
// unit suite's real-time tests); so does the load test of user-files (hundreds of sockets).
import { configDefaults, defineConfig } from 'vitest/config';

/** Files that run one at a time, after the others: real-time audio and timing, and a load test. */
const ONE_AT_A_TIME = [
  // Calls fed by the page's fake microphone or ALSA's file device, answered with speech.
  'test/e2e/realtime-*.test.ts',
  'test/e2e/sip-call.test.ts',
  // Live transcription from the fake microphone; speech and recordings played and followed.
  'test/e2e/voice-history-offline.test.ts',
  'test/e2e/speech.test.ts',
  'test/e2e/voices.test.ts',
  'test/e2e/session-playback.test.ts',
  // A load test: 600 sockets held open on the app (300 asking every second) while a new tab loads,
  // connects and uploads. Beside another file's app and Chromium it missed its 30 s wait for the
  // upload (CI-script run of 2026-11-28, 06:42).
  'test/e2e/user-files.test.ts',
];
/** The parallel project's workers (CI has 2 cores). */
const WORKERS = 2;

const shared = { environment: 'node', testTimeout: 120_000, hookTimeout: 180_000 } as const;

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          ...shared,
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...ONE_AT_A_TIME],
          maxWorkers: WORKERS,
        },
      },
      {
        test: {
          ...shared,
          name: 'e2e-real-time',
          include: ONE_AT_A_TIME,
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
