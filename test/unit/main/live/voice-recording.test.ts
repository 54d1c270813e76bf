// main's `voice-recording` live kind: starts the media process's `native-capture` session on the
// chosen device, gives the page its streams in the snapshot, and reports the end: stopped, the
// 120 s limit reached, or the device failing (in the device's words).
import { describe, expect, it } from 'vitest';
import type { LiveAttachChunk, LiveSessionSummary } from '../../../../shared/contract/live';
import type { MediaPlaneEvent } from '../../../../main/media/media-plane';
import { createLiveRegistry } from '../../../../main/live/registry';
import { voiceRecordingLiveKind } from '../../../../main/live/voice-recording';

function fakeMedia() {
  const listeners = new Set<(e: MediaPlaneEvent) => void>();
  const started: Array<{ id: string; kind: string; options: unknown }> = [];
  const stopped: string[] = [];
  return {
    started,
    stopped,
    say: (e: MediaPlaneEvent) => listeners.forEach((l) => l(e)),
    media: {
      startSession: async (id: string, kind: string, options: unknown) => (started.push({ id, kind, options }), { ok: true as const, value: { sessionId: id, kind, streams: { pcm: 3, levels: 4 } } }),
      stopSession: async (id: string) => (stopped.push(id), { ok: true as const, value: null }),
      onEvent: (l: (e: MediaPlaneEvent) => void) => (listeners.add(l), () => void listeners.delete(l)),
    },
  };
}

async function start(input: unknown) {
  const m = fakeMedia();
  const registry = createLiveRegistry({ kinds: [voiceRecordingLiveKind(m) as never], onChange: () => {} });
  const id = await registry.start('voice-recording', input, { origin: 'window' });
  const chunks: LiveAttachChunk[] = [];
  let ended: LiveSessionSummary | null = null;
  await registry.attach(id, { deliver: (c) => void chunks.push(c), ended: (s) => void (ended = s) });
  const mediaId = m.started[0]!.id;
  return { m, registry, id, chunks, ended: () => ended, mediaId, events: () => chunks.flatMap((c) => (c.type === 'event' ? [c.event] : [])) };
}

describe('voice-recording live kind', () => {
  it('captures the chosen native device in the media process and gives the page its streams', async () => {
    const { m, chunks, registry, id, mediaId, events } = await start({ device: 'ALSA:USB Mic' });
    expect(m.started).toEqual([{ id: mediaId, kind: 'native-capture', options: { device: 'ALSA:USB Mic', sampleRate: 16_000, maxMs: 120_000 } }]);
    expect(chunks[0]).toMatchObject({ type: 'snapshot', snapshot: { status: 'recording', sampleRate: 16_000, streams: { pcm: 3, levels: 4 }, end: null } });
    m.say({ type: 'session-event', sessionId: mediaId, event: 'device', at: 0, data: { name: 'USB Mic' } });
    await registry.stop(id);
    expect(m.stopped).toEqual([mediaId]);
    expect(events()).toEqual([{ type: 'device', name: 'USB Mic' }, { type: 'ended', atLimit: false }]);
  });

  it('says when the 120 s limit ended it', async () => {
    const { m, mediaId, events, ended } = await start({});
    m.say({ type: 'session-event', sessionId: mediaId, event: 'ended-at-limit', at: 0, data: { frames: 6000, ms: 120_000 } });
    m.say({ type: 'session-ended', sessionId: mediaId });
    await new Promise((r) => setTimeout(r, 0));
    expect(events()).toEqual([{ type: 'ended', atLimit: true }]);
    expect(ended()).toMatchObject({ status: 'ended' });
    expect(m.stopped).toEqual([]);
  });

  it('ends failed with the device’s explanation when the microphone fails mid-recording', async () => {
    const { m, mediaId, events, ended } = await start({});
    const message = 'The microphone "USB Mic" was disconnected. Plug it back in or pick another one. The recording stopped there.';
    m.say({ type: 'session-ended', sessionId: mediaId, error: { code: 'unsupported', message } });
    await new Promise((r) => setTimeout(r, 0));
    expect(events()).toEqual([{ type: 'failed', message }]);
    expect(ended()).toMatchObject({ status: 'ended', endReason: 'failed', error: { message } });
  });

  it('refuses a recording longer than a clip may be', async () => {
    const m = fakeMedia();
    const registry = createLiveRegistry({ kinds: [voiceRecordingLiveKind(m) as never], onChange: () => {} });
    await expect(registry.start('voice-recording', { maxMs: 300_000 }, { origin: 'window' })).rejects.toMatchObject({ error: { code: 'invalid_input' } });
    expect(m.started).toEqual([]);
  });
});
