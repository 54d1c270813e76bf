/**
 * Browser entry for the Files screenshots: the in-memory fake as `window.workbench` with a list
 * that has what the layout must hold (a long name, today's and older uploads, a public URL with an
 * expiry, files that expire soon).
 */
import { createFakeWorkbench, makeFileRecord } from '../fake-workbench';
import { asPreloadApi } from './as-preload';

const now = Date.now();
const files = [
  makeFileRecord({ id: 'file_5f0c1b7e-0d1a-4a53-9a4e-1f2a3b4c5d6e', filename: 'quarterly-report-final-v3 (reviewed by legal) – résumé "final".pdf', bytes: 49_000_000, createdAt: now - 60_000, expiresAt: now + 50 * 60_000 }),
  makeFileRecord({ id: 'file_0b4d2e8a-77c1-4c1e-8e0f-2a3b4c5d6e7f', filename: 'notes.txt', bytes: 1200, createdAt: now - 3 * 86_400_000, publicUrl: 'https://cdn.example/t0k3n/notes.txt', publicUrlExpiresAt: now + 86_400_000, expiresAt: now + 20 * 86_400_000 }),
  makeFileRecord({ id: 'file_9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d', filename: 'dataset.csv', bytes: 3_456_789, createdAt: now - 40 * 86_400_000 }),
];
window.workbench = asPreloadApi(createFakeWorkbench({ files, keyWarning: null }));
