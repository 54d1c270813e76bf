import { describe, expect, it } from 'vitest';
import { MediaStore, mediaGoneMessage } from '../../../../../main/sandbox/media/store';

const T0 = 1_800_000_000_000;
const bytes = (n: number) => new Uint8Array(n);

describe('sandbox/media/store', () => {
  it('keeps entries under unguessable paths until their lifetime ends, then says they expired', () => {
    const store = new MediaStore({ ttlMs: 60_000 });
    const { path } = store.put('images', 'jpg', bytes(10), 'image/jpeg', T0);
    expect(path).toMatch(/^\/media\/images\/[A-Za-z0-9_-]{32}\.jpg$/);
    expect(store.put('images', 'jpg', bytes(10), 'image/jpeg', T0).path).not.toBe(path);
    expect(store.get(path, T0 + 59_999)).toMatchObject({ state: 'found', entry: { mime: 'image/jpeg', expiresMs: T0 + 60_000 } });
    const gone = store.get(path, T0 + 60_000);
    expect(gone).toEqual({ state: 'expired', expiresMs: T0 + 60_000 });
    expect(store.get(path, T0 + 61_000).state).toBe('expired');
    expect(store.get('/media/images/nope.jpg', T0)).toEqual({ state: 'unknown' });
    expect(mediaGoneMessage({ state: 'expired', expiresMs: T0 }, 3_600_000, 1)).toMatch(/generated media URLs last 1 hour/);
  });

  it('holds at most maxBytes, dropping the least recently used first', () => {
    const store = new MediaStore({ maxBytes: 100 });
    const a = store.put('images', 'jpg', bytes(40), 'image/jpeg', T0).path;
    const b = store.put('images', 'jpg', bytes(40), 'image/jpeg', T0).path;
    expect(store.get(a, T0).state).toBe('found'); // a is now the most recently used
    const c = store.put('images', 'jpg', bytes(40), 'image/jpeg', T0).path;
    expect([store.get(a, T0).state, store.get(b, T0).state, store.get(c, T0).state]).toEqual(['found', 'evicted', 'found']);
    expect(store.size).toBe(80);
    expect(mediaGoneMessage({ state: 'evicted', expiresMs: T0 }, 1, 256 * 1024 * 1024)).toMatch(/at most 256 MB of generated media/);
    // One entry over the bound on its own is still kept (it is what the client just asked for).
    const huge = store.put('images', 'jpg', bytes(500), 'image/jpeg', T0).path;
    expect(store.get(huge, T0).state).toBe('found');
    expect(store.count).toBe(1);
  });

  it('sweeps expired entries when adding, freeing their bytes', () => {
    const store = new MediaStore({ ttlMs: 1000 });
    store.put('images', 'jpg', bytes(30), 'image/jpeg', T0);
    store.put('images', 'jpg', bytes(30), 'image/jpeg', T0 + 2000);
    expect([store.count, store.size]).toEqual([1, 30]);
  });
});
