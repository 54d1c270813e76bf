/**
 * Input transcription events for a committed item: deltas that add up to the completed
 * transcript, or cumulative updates with svc-transcribe; words only where the item has speech,
 * the same audio the same words, usage in seconds of audio.
 */
import { describe, expect, it } from 'vitest';
import { transcriptionEvents, transcriptionMode, type TranscriptionEvent } from '../../../../../../main/sandbox/realtime/turns/transcription';
import { decodeMulaw, encodeMulaw } from '../../../../../../shared/audio';
import { concat, silence, speakAt } from './audio';

const rate = 24_000;
const short = concat(silence(300, rate), speakAt('Hello there, I would like to book a table.', rate), silence(500, rate));
const long = concat(silence(300, rate), speakAt('Good morning, could you tell me about the weather in Paris today and tomorrow please.', rate), silence(500, rate));

const completed = (events: TranscriptionEvent[]) => {
  const last = events.at(-1);
  if (last?.type !== 'conversation.item.input_audio_transcription.completed') throw new Error(`last event ${last?.type}`);
  return last;
};

describe('transcriptionEvents', () => {
  it('sends word deltas that add up to the completed transcript, then completed with the duration', async () => {
    const events = await transcriptionEvents('item_1', short, rate, { language_hint: 'en' });
    const done = completed(events);
    const deltas = events.filter((e) => e.type === 'conversation.item.input_audio_transcription.delta');
    expect(deltas.length).toBeGreaterThan(2);
    expect(events.slice(0, -1).every((e) => e.type.endsWith('.delta'))).toBe(true);
    expect(deltas.map((e) => ('delta' in e ? e.delta : '')).join('')).toBe(done.transcript);
    expect(done).toMatchObject({ item_id: 'item_1', content_index: 0, usage: { type: 'duration', seconds: Math.round((short.length / rate) * 100) / 100 } });
    // Grounded: the deltas come while there is speech (after the 300 ms of silence), in order.
    const at = events.map((e) => e.atMs);
    expect(at).toEqual([...at].sort((a, b) => a - b));
    expect(deltas[0].atMs).toBeGreaterThan(300);
    const speechEndMs = (short.length / rate) * 1000 - 500;
    expect(deltas.at(-1)!.atMs).toBeLessThanOrEqual(speechEndMs + 20);
    // The same audio, the same words; other audio, other words.
    expect(completed(await transcriptionEvents('item_9', short, rate, {})).transcript).toBe(done.transcript);
    expect(completed(await transcriptionEvents('item_9', long, rate, {})).transcript).not.toBe(done.transcript);
  });

  it('with svc-transcribe sends cumulative updates every 500 ms of audio, correcting the word in progress', async () => {
    const events = await transcriptionEvents('item_2', long, rate, { model: 'svc-transcribe', keyterms: ['Paris'] });
    const done = completed(events);
    const updates = events.filter((e) => e.type === 'conversation.item.input_audio_transcription.updated');
    expect(updates.length).toBeGreaterThan(3);
    expect(events.some((e) => e.type.endsWith('.delta'))).toBe(false);
    // Cumulative: each update is the transcript so far; the last one is the whole transcript.
    const texts = updates.map((e) => ('transcript' in e ? e.transcript : ''));
    expect(texts.at(-1)).toBe(done.transcript);
    for (const t of texts) {
      const whole = t.split(' ').slice(0, -1).join(' ');
      expect(done.transcript.startsWith(whole), `"${t}" is not a start of "${done.transcript}"`).toBe(true);
    }
    // Paced on the audio: 500 ms apart (a repeat of the same text is skipped).
    for (const e of updates.slice(0, -1)) expect(e.atMs % 500).toBe(0);
    // Each update extends the one before (a part-spoken word grows into the whole word)...
    expect(texts.some((t, i) => i > 0 && !t.startsWith(texts[i - 1]))).toBe(false);
    // ...and at least one showed a word part-spoken that a later one completed.
    expect(texts.some((t) => !done.transcript.split(' ').includes(t.split(' ').at(-1)!))).toBe(true);
  });

  it('transcribes a phone caller (G.711 µ-law at 8 kHz, decoded)', async () => {
    const phone = decodeMulaw(encodeMulaw(concat(silence(300, 8000), speakAt('Hello, I am calling about my order.', 8000), silence(500, 8000))));
    const events = await transcriptionEvents('item_5', phone, 8000, {});
    expect(events.length).toBeGreaterThan(2);
    expect(completed(events).transcript.split(' ').length).toBe(events.length - 1);
  });

  it('gives a silent turn an empty transcript and no deltas', async () => {
    const events = await transcriptionEvents('item_3', silence(1000, rate), rate, { model: 'svc-transcribe' });
    expect(events).toHaveLength(1);
    expect(completed(events)).toMatchObject({ transcript: '', usage: { seconds: 1 } });
    expect(await transcriptionEvents('item_4', new Int16Array(0), 8000, {})).toEqual([
      expect.objectContaining({ type: 'conversation.item.input_audio_transcription.completed', transcript: '', usage: { type: 'duration', seconds: 0 } }),
    ]);
  });

  it('chooses the shape from the session config', () => {
    expect(transcriptionMode(null)).toBeNull();
    expect(transcriptionMode({})).toBe('delta');
    expect(transcriptionMode({ model: 'whisper-1' })).toBe('delta');
    expect(transcriptionMode({ model: 'svc-transcribe' })).toBe('cumulative');
  });
});
