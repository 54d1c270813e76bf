import { afterEach, describe, expect, it } from 'vitest';
import { flushPromises } from '@vue/test-utils';
import { defineComponent, h } from 'vue';
import ConfirmDialog from 'primevue/confirmdialog';
import { parseWav } from '@shared/audio/wav';
import type { CustomVoice } from '@shared/families/voices/contract';
import VoicesView from '@/families/voices/views/VoicesView.vue';
import type { PageCaptureOptions } from '@/audio/page-capture';
import { button, mountWithApp, type Mounted } from '../mount-app';

let m: Mounted;
afterEach(() => m?.wrapper.unmount());

const voice = (i: number): CustomVoice => ({ voice_id: `v${String(i).padStart(7, '0')}`, name: `Voice ${i}`, gender: 'female', age: null, language: 'en', use_case: 'narration', tone: 'warm', accent: null, description: null, created_at: '2026-11-01T10:00:00Z' });
const rows = () => [...document.querySelectorAll('section[aria-label="Custom voices"] tbody tr[data-voice]')].map((r) => r.getAttribute('data-voice'));
const calls = (method: string) => m.fake.controls.calls.filter((c) => c.method === method).map((c) => c.input);
const WithConfirm = defineComponent({ setup: () => () => h('div', [h(VoicesView), h(ConfirmDialog)]) });

async function fill(container: Element, values: Record<string, string>): Promise<void> {
  for (const [name, value] of Object.entries(values)) {
    const el = container.querySelector(`[name="${name}"]`) as HTMLInputElement | HTMLSelectElement;
    el.value = value;
    el.dispatchEvent(new Event(el.tagName === 'SELECT' ? 'change' : 'input'));
  }
  await flushPromises();
}

// The first mount loads PrimeVue and the view cold: slow on a loaded machine.
describe('VoicesView', { timeout: 30_000 }, () => {
  it('lists the built-in voices and the custom voices one page at a time', async () => {
    m = await mountWithApp(VoicesView, { route: '/voices', fake: { voices: Array.from({ length: 25 }, (_, i) => voice(i + 1)) } });
    const builtIn = [...document.querySelectorAll('section[aria-label="Built-in voices"] tr')].map((r) => r.getAttribute('data-voice'));
    expect(builtIn).toEqual(['eve', 'ara', 'leo', 'rex', 'sal']);
    expect(rows()).toHaveLength(20);
    expect(rows()[0]).toBe('v0000001');
    button(m.wrapper, 'Next').click();
    await flushPromises();
    expect(rows()).toEqual(['v0000021', 'v0000022', 'v0000023', 'v0000024', 'v0000025']);
    expect(button(m.wrapper, 'Next').disabled).toBe(true);
    button(m.wrapper, 'Previous').click();
    await flushPromises();
    expect(rows()).toHaveLength(20);
    expect(calls('voices.list').at(-1)).toEqual({ limit: 20 });
  });

  it('clones a voice from a dropped file (routed here) with the spec enums, and lists it', async () => {
    m = await mountWithApp(VoicesView, { route: '/voices?ref=ref_AAAAAAAAAAAAAAAAAAAAAA&name=me.wav' });
    expect(document.querySelector('[aria-label="Clip"]')?.textContent).toContain('me.wav');
    const panel = document.querySelector('section[aria-label="Clone a voice"]')!;
    const toneOptions = [...panel.querySelectorAll('select[name="tone"] option')].map((o) => (o as HTMLOptionElement).value);
    expect(toneOptions).toEqual(['', 'warm', 'casual', 'professional', 'friendly', 'authoritative', 'expressive', 'calm']);
    await fill(panel, { name: 'Narrator', gender: 'male', use_case: 'social_media' });
    button(m.wrapper, 'Clone voice').click();
    await flushPromises();
    expect(calls('voices.create')).toEqual([{ ref: 'ref_AAAAAAAAAAAAAAAAAAAAAA', metadata: { name: 'Narrator', gender: 'male', use_case: 'social_media' } }]);
    expect(panel.querySelector('[role="status"]')?.textContent).toMatch(/Cloned "Narrator"/);
    expect(rows()).toHaveLength(1);
    // A fresh form for the next voice.
    expect((panel.querySelector('[name="name"]') as HTMLInputElement).value).toBe('');
  });

  it('says why a clone failed where it was asked for (a clip over 120 s), and needs a name first', async () => {
    m = await mountWithApp(VoicesView, { route: '/voices?ref=ref_AAAAAAAAAAAAAAAAAAAAAA&name=long.wav' });
    const panel = document.querySelector('section[aria-label="Clone a voice"]')!;
    button(m.wrapper, 'Clone voice').click();
    await flushPromises();
    expect(panel.querySelector('[role="alert"]')?.textContent).toBe('A voice needs a name.');
    expect(calls('voices.create')).toHaveLength(0);
    m.fake.controls.voices.failNextCreate = 'long.wav is 130.0 s long; a voice is cloned from at most 120 s of audio. Trim it to 120 s or less.';
    await fill(panel, { name: 'Long' });
    button(m.wrapper, 'Clone voice').click();
    await flushPromises();
    expect(panel.querySelector('.clone-error')?.textContent).toContain('130.0 s long; a voice is cloned from at most 120 s');
    expect(rows()).toHaveLength(0);
  });

  it('edits only what changed (an emptied field clears), and refuses an edit that changes nothing', async () => {
    m = await mountWithApp(VoicesView, { route: '/voices', fake: { voices: [{ ...voice(1), accent: 'Irish' }] } });
    button(m.wrapper, 'Edit').click();
    await flushPromises();
    const form = document.querySelectorAll('form.voice-form')[1]!;
    (form.querySelector('button[type="submit"]') as HTMLButtonElement).click();
    await flushPromises();
    expect(form.querySelector('[role="alert"]')?.textContent).toMatch(/^Change at least one of name/);
    expect(calls('voices.update')).toHaveLength(0);
    await fill(form, { tone: 'calm', accent: '' });
    (form.querySelector('button[type="submit"]') as HTMLButtonElement).click();
    await flushPromises();
    expect(calls('voices.update')).toEqual([{ id: 'v0000001', patch: { accent: null, tone: 'calm' } }]);
    expect(document.querySelector('tr[data-voice="v0000001"]')?.textContent).toContain('calm');
  });

  it('deletes a voice only after the confirmation', async () => {
    m = await mountWithApp(WithConfirm, { route: '/voices', fake: { voices: [voice(1), voice(2)] } });
    [...document.querySelectorAll('tr[data-voice="v0000002"] button')].find((b) => b.textContent?.trim() === 'Delete')!.dispatchEvent(new Event('click'));
    await flushPromises();
    const dialog = document.querySelector('.p-confirmdialog')!;
    expect(dialog.textContent).toContain('Delete "Voice 2" (v0000002)?');
    expect(calls('voices.remove')).toHaveLength(0);
    (dialog.querySelector('.p-confirmdialog-accept-button') as HTMLElement).click();
    await flushPromises();
    expect(calls('voices.remove')).toEqual([{ id: 'v0000002' }]);
    expect(rows()).toEqual(['v0000001']);
  });

  it('reloads the page shown when another window changes a voice', async () => {
    m = await mountWithApp(VoicesView, { route: '/voices', fake: { voices: [voice(1)] } });
    m.fake.controls.voices.voices.push(voice(2));
    m.fake.controls.voices.emitChanged({ connectionId: 'sandbox', voiceId: 'v0000002', change: 'created' });
    await flushPromises();
    expect(rows()).toEqual(['v0000001', 'v0000002']);
  });

  it('plays the reference clip and a preview of speech in the voice by media URL', async () => {
    m = await mountWithApp(VoicesView, { route: '/voices', fake: { voices: [voice(1)] } });
    const audio = document.querySelector('audio.player') as HTMLAudioElement;
    button(m.wrapper, 'Play reference').click();
    await flushPromises();
    expect(calls('voices.referenceAudio')).toEqual([{ id: 'v0000001' }]);
    expect(audio.getAttribute('src') ?? audio.src).toMatch(/\/media\/[0-9a-f]{64}\?t=fake$/);
    const text = document.querySelector('[aria-label="Preview text"]') as HTMLInputElement;
    text.value = 'Testing one two.';
    text.dispatchEvent(new Event('input'));
    [...document.querySelectorAll('tr[data-voice="eve"] button')][0]!.dispatchEvent(new Event('click'));
    await flushPromises();
    expect(m.fake.controls.voices.previews).toEqual([{ voiceId: 'eve', text: 'Testing one two.' }]);
    expect(audio.getAttribute('aria-label')).toBe('Playing preview of eve');
  });

  it('says why the microphone did not start (refused), and records nothing', async () => {
    const refused = 'Microphone access was refused. Allow it for this app (the browser or system settings), then try again.';
    const startCapture = async () => ({ ok: false as const, error: { code: 'denied' as const, message: refused } });
    m = await mountWithApp(VoicesView, { route: '/voices', props: { startCapture } });
    button(m.wrapper, 'Record from the microphone').click();
    await flushPromises();
    expect(document.querySelector('.mic-recorder [role="alert"]')?.textContent).toBe(refused);
    expect(document.querySelector('[aria-label="Time left"]')).toBeNull();
    expect(document.querySelector('[aria-label="Clip"]')?.textContent ?? '').not.toMatch(/recording-/);
  });

  it('a microphone unplugged mid-recording is said, and the seconds recorded before it are kept as the clip', async () => {
    let options!: PageCaptureOptions;
    const startCapture = async (o: PageCaptureOptions) => ((options = o), { ok: true as const, value: { dispose: async () => undefined } });
    m = await mountWithApp(VoicesView, { route: '/voices', props: { startCapture } });
    button(m.wrapper, 'Record from the microphone').click();
    await flushPromises();
    for (let s = 0; s < 3; s++) options.onFrame({ seq: s, pcm: new Int16Array(16000).fill(1000), sampleRate: 16000, channels: 1, startMs: s * 1000, capturedAt: 0 });
    options.onError?.({ code: 'device_lost', message: 'The microphone was unplugged' });
    await flushPromises();
    expect(document.querySelector('.mic-recorder [role="alert"]')?.textContent).toBe('The microphone was unplugged. The 3.0 s recorded before are kept as the clip.');
    expect(document.querySelector('[aria-label="Clip"]')?.textContent).toMatch(/recording-.*\.wav/);
  });

  it('records from the microphone with a countdown that stops at 120 s, then clones from the staged WAV', async () => {
    let options!: PageCaptureOptions;
    let disposed = 0;
    const startCapture = async (o: PageCaptureOptions) => {
      options = o;
      return { ok: true as const, value: { dispose: async () => void disposed++ } };
    };
    const staged: File[] = [];
    const stage = async (file: File) => (staged.push(file), { ref: 'ref_BBBBBBBBBBBBBBBBBBBBBB', name: file.name, size: file.size, type: file.type });
    m = await mountWithApp(VoicesView, { route: '/voices', props: { stage, startCapture } });
    button(m.wrapper, 'Record from the microphone').click();
    await flushPromises();
    const frame = (seq: number) => ({ seq, pcm: new Int16Array(16000).fill(1000), sampleRate: 16000, channels: 1 as const, startMs: seq * 1000, capturedAt: 0 });
    options.onLevel?.({ rms: 0.5, peak: 0.5, rmsDbfs: -6, peakDbfs: -6 });
    for (let s = 0; s < 30; s++) options.onFrame(frame(s));
    await flushPromises();
    expect(document.querySelector('[aria-label="Time left"]')?.textContent).toBe('90 s left');
    expect(Number(document.querySelector('[role="meter"]')?.getAttribute('aria-valuenow'))).toBe(90);
    for (let s = 30; s < 125; s++) options.onFrame(frame(s));
    await flushPromises();
    expect(disposed).toBe(1);
    expect(document.querySelector('[aria-label="Time left"]')).toBeNull();
    expect(document.querySelector('[aria-label="Clip"]')?.textContent).toMatch(/recording-.*\.wav/);
    await fill(document.querySelector('section[aria-label="Clone a voice"]')!, { name: 'Me' });
    button(m.wrapper, 'Clone voice').click();
    await flushPromises();
    expect(staged).toHaveLength(1);
    const wav = parseWav(new Uint8Array(await staged[0]!.arrayBuffer()));
    expect(wav.ok && wav.value.durationMs).toBe(120_000);
    expect(calls('voices.create')).toEqual([{ ref: 'ref_BBBBBBBBBBBBBBBBBBBBBB', metadata: { name: 'Me' } }]);
  });
});
