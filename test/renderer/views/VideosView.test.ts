import { afterEach, describe, expect, it, vi } from 'vitest';
import { flushPromises } from '@vue/test-utils';
import type { FileRef } from '@shared/contract/user-files';
import type { VideoJob } from '@shared/families/videos/contract';
import { useDroppedFilesStore } from '@/stores/dropped-files';
import { useModelsStore } from '@/stores/models';
import { useVideoFormStore } from '@/families/videos/stores/video-form';
import { makeEntry, sampleCatalogueEntries } from '../fake-data';
import { makeFileRecord, type FakeWorkbenchOptions } from '../fake-workbench';
import { button, mountWithApp, type Mounted } from '../mount-app';
import { NOW, makeVideoItem, makeVideoJob } from '../components/videos/video-job-data';

// Staging (the preload, or XHR to main in browser mode) is tested on its own; here it hands back references.
vi.mock('@/bridge/user-files', () => ({
  fileRefsFrom: async (files: File[]) => files.map((f, i): FileRef => ({ ref: `ref_${'F'.repeat(19)}${i}`, name: f.name, size: f.size, type: f.type })),
  chooseFiles: async () => [],
}));

const { default: VideosView } = await import('@/families/videos/views/VideosView.vue');

let m: Mounted;
afterEach(() => m?.wrapper.unmount());

const REF = 'ref_AAAAAAAAAAAAAAAAAAAA';
const FILE_ID = 'file_00000000-0000-0000-0000-0000000000f1';

async function open(route = '/videos', fake: FakeWorkbenchOptions = {}): Promise<Mounted> {
  m = await mountWithApp(VideosView, { route, fake });
  await flushPromises();
  return m;
}

function sendReason(): string {
  return m.wrapper.find('.send-reason').text();
}

async function chooseMode(label: 'Generate' | 'Edit' | 'Extend'): Promise<void> {
  const option = [...m.wrapper.element.querySelectorAll('[aria-label="What to make"] button, [aria-label="What to make"] [role="radio"], [aria-label="What to make"] .p-togglebutton')].find((b) => b.textContent?.trim() === label) as HTMLElement;
  option.click();
  await flushPromises();
}

describe('VideosView', () => {
  it('says why nothing can be sent yet, and sends the form once the prompt is written', async () => {
    await open();
    expect(sendReason()).toBe('Can\'t send: write a prompt (or give an image to animate)');
    const created = () => m.fake.controls.calls.filter((c) => c.method === 'videos.create').map((c) => c.input);
    button(m.wrapper, 'Create').click();
    await flushPromises();
    expect(created()).toEqual([]);
    await m.wrapper.find('#video-prompt').setValue('a cat surfing');
    button(m.wrapper, 'Create').click();
    await flushPromises();
    expect(created()).toEqual([{ mode: 'generate', model: 'svc-video-1', prompt: 'a cat surfing' }]);
    expect(m.wrapper.findAll('.job-card')).toHaveLength(1);
  });

  it('chooses the first video model when the catalogue arrives after the view opened (a connection switched just before)', async () => {
    await open('/videos', { catalogueError: { code: 'network', message: 'the catalogue is still on its way' } });
    expect(useVideoFormStore().form.model).toBe('');
    m.fake.controls.catalogueError = undefined;
    await useModelsStore().load({ refresh: true });
    await flushPromises();
    expect(useVideoFormStore().form.model).toBe(useVideoFormStore().videoModels[0]!.id);
  });

  it('locks aspect ratio and resolution for edit and extend with the reason, and changes the duration limits per mode', async () => {
    await open();
    const resolutionLocked = (): boolean => m.wrapper.find('#video-resolution').attributes('aria-disabled') === 'true';
    expect(resolutionLocked()).toBe(false);
    expect(m.wrapper.find('#video-duration').attributes('placeholder')).toBe('1–15, default 8');
    await chooseMode('Extend');
    expect(resolutionLocked()).toBe(true);
    expect(m.wrapper.text()).toContain('Not sent: an edit or an extension keeps the input’s size.');
    expect(m.wrapper.find('#video-duration').attributes('placeholder')).toBe('2–10, default 6');
    expect(m.wrapper.find('label[for="video-prompt"]').text()).toBe('What happens next');
    await m.wrapper.find('#video-duration').setValue('12');
    await flushPromises();
    expect(m.wrapper.text()).toContain('an extension lasts 2–10 whole seconds (default 6)');
    await chooseMode('Edit');
    expect(m.wrapper.text()).toContain('Not sent: an edit keeps the input’s length.');
  });

  it('offers reference voices only on a model that takes audio, and says why not', async () => {
    await open('/videos', { entries: [...sampleCatalogueEntries(), makeEntry({ id: 'svc-video-av', kind: 'video', inputModalities: ['text', 'image', 'audio'], outputModalities: ['video'], contextLength: null })] });
    expect(m.wrapper.text()).toContain('Unavailable: svc-video-1 does not take reference audio (it accepts text, image).');
    expect(m.wrapper.find('[aria-label="Voice Eve (eve)"]').attributes('disabled') ?? m.wrapper.find('[aria-label="Voice Eve (eve)"] input').attributes('disabled')).toBeDefined();
    useVideoFormStore(m.pinia).form.model = 'svc-video-av';
    await flushPromises();
    expect(m.wrapper.text()).toContain('Up to 3 preset voices');
  });

  it('fills the form from a dropped file’s link (?ref=&as=extend) and from a Files id (?file=), then drops the query', async () => {
    m = await mountWithApp(VideosView, { route: '/chat', fake: { files: [makeFileRecord({ id: FILE_ID, filename: 'cat.png', contentType: 'image/png' })] } });
    useDroppedFilesStore(m.pinia).remember([{ ref: REF, name: 'holiday.mp4', size: 10, type: 'video/mp4' }]);
    await m.router.push(`/videos?ref=${REF}&as=extend`);
    await vi.waitFor(() => expect(useVideoFormStore(m.pinia).form.mode).toBe('extend'));
    const form = useVideoFormStore(m.pinia).form;
    expect(form.video).toEqual({ source: { kind: 'ref', ref: REF }, label: 'holiday.mp4', kind: 'video', mime: 'video/mp4' });
    await vi.waitFor(() => expect(m.router.currentRoute.value.fullPath).toBe('/videos'));
    await m.router.push(`/videos?file=${FILE_ID}`);
    await vi.waitFor(() => expect(useVideoFormStore(m.pinia).form.mode).toBe('generate'));
    expect(useVideoFormStore(m.pinia).form.image).toMatchObject({ source: { kind: 'file', fileId: FILE_ID }, label: 'cat.png' });
    await flushPromises();
    expect(m.wrapper.text()).toContain('cat.png');
  });

  it('lists the jobs main has, newest first, and follows their changes (a reload finds a job still progressing)', async () => {
    const older = makeVideoJob({ id: 'job_old', cardId: 'card_old', createdAt: NOW - 100_000, prompt: 'older' });
    const newer = makeVideoJob({ id: 'job_new', cardId: 'card_new', createdAt: NOW - 10_000, prompt: 'newer', progress: 10 });
    await open('/videos', { videoJobs: [newer, older] });
    expect(m.wrapper.findAll('.job-prompt').map((p) => p.text())).toEqual(['newer', 'older']);
    expect(m.wrapper.find('[data-state="pending"] [role="progressbar"]').attributes('aria-valuenow')).toBe('10');
    m.fake.controls.emitVideoChanged({ ...newer, progress: 77, updatedAt: NOW + 1 });
    await flushPromises();
    expect(m.wrapper.find('[data-state="pending"] [role="progressbar"]').attributes('aria-valuenow')).toBe('77');
  });

  it('Extend on a finished card fills the form in extend mode with that video', async () => {
    await open();
    await m.wrapper.find('#video-prompt').setValue('a cat surfing');
    const done: VideoJob = makeVideoJob({ state: 'done', progress: 100, finishedAt: NOW, video: makeVideoItem() });
    m.fake.controls.emitVideoChanged(done);
    await flushPromises();
    await m.wrapper.find('.job-card').findAll('button').find((b) => b.text() === 'Extend')!.trigger('click');
    await flushPromises();
    const form = useVideoFormStore(m.pinia).form;
    expect(form.mode).toBe('extend');
    expect(form.video).toEqual({ source: { kind: 'gallery', id: 'gal_video0001' }, label: 'a-cat-surfing.mp4', kind: 'video', mime: 'video/mp4' });
    expect(form.prompt).toBe('');
    expect(sendReason()).toBe('Can\'t send: say what happens next');
  });

  it('Edit and resend on a refused card puts that request back in the form, to change what was refused and send again', async () => {
    await open();
    await m.wrapper.find('#video-prompt').setValue('something else entirely');
    const refused: VideoJob = makeVideoJob({
      state: 'failed',
      finishedAt: NOW,
      progress: null,
      inputs: ['image: cat.png'],
      error: { code: 'api_error', status: 400, message: 'The service rejected the request (400): duration too long', reason: 'The service refused the request before starting.' },
      request: { mode: 'generate', model: 'svc-video-1', prompt: 'a cat surfing', image: { kind: 'gallery', id: 'gal_cat00001' }, duration: 15, resolution: '480p' },
    });
    m.fake.controls.emitVideoChanged(refused);
    await flushPromises();
    const card = m.wrapper.find('.job-card');
    expect(card.findAll('button').map((b) => b.text())).not.toContain('Retry');
    await card.findAll('button').find((b) => b.text() === 'Edit and resend')!.trigger('click');
    await flushPromises();
    const form = useVideoFormStore(m.pinia).form;
    expect(form).toMatchObject({ mode: 'generate', prompt: 'a cat surfing', resolution: '480p', durations: { generate: 15 }, image: { source: { kind: 'gallery', id: 'gal_cat00001' }, label: 'cat.png' } });
    expect((m.wrapper.find('#video-prompt').element as HTMLTextAreaElement).value).toBe('a cat surfing');
    expect(m.wrapper.text()).toContain('Form set to that request');
  });

  it('takes an image or an MP4 dropped onto the form as an input, switching to Edit for a video, and explains other files', async () => {
    await open();
    const dropOn = async (file: File): Promise<Event> => {
      const event = new Event('drop', { bubbles: true, cancelable: true });
      Object.defineProperty(event, 'dataTransfer', { value: { types: ['Files'], files: [file] } });
      m.wrapper.find('.video-form').element.dispatchEvent(event);
      await flushPromises();
      return event;
    };
    expect((await dropOn(new File(['p'], 'cat.png', { type: 'image/png' }))).defaultPrevented).toBe(true);
    expect(useVideoFormStore(m.pinia).form.image).toMatchObject({ label: 'cat.png', kind: 'image', mime: 'image/png' });
    await dropOn(new File(['v'], 'clip.mp4', { type: 'video/mp4' }));
    expect(useVideoFormStore(m.pinia).form).toMatchObject({ mode: 'edit', video: { label: 'clip.mp4', kind: 'video' } });
    expect(m.wrapper.text()).toContain('the form is now an Edit');
    await dropOn(new File(['t'], 'notes.txt', { type: 'text/plain' }));
    expect(m.wrapper.text()).toContain('"notes.txt" (text/plain) is not an input a video takes');
  });

  it('shows the drop overlay only while a file is dragged over the view, and never on the form\'s own hint', async () => {
    await open();
    const overlay = () => m.wrapper.find('.view-drop-overlay');
    expect(overlay().exists()).toBe(false);
    // The form's hint is text in the form, not an overlay (it once carried the overlay's class).
    expect(m.wrapper.find('.form-drop-help').classes()).not.toContain('view-drop-overlay');
    const drag = (type: string, types = ['Files']): void => {
      const event = new Event(type, { bubbles: true, cancelable: true });
      Object.defineProperty(event, 'dataTransfer', { value: { types, files: [] } });
      m.wrapper.find('.video-form').element.dispatchEvent(event);
    };
    drag('dragenter', ['text/plain']);
    await flushPromises();
    expect(overlay().exists()).toBe(false);
    drag('dragenter');
    await flushPromises();
    expect(overlay().text()).toBe('Drop an image or an MP4 to use it');
    drag('dragleave');
    await flushPromises();
    expect(overlay().exists()).toBe(false);
  });

  it('sends the request headers typed in its parameters with the create, and refuses one the app owns', async () => {
    await open();
    await m.wrapper.find('#video-prompt').setValue('a heron');
    const addHeader = async (name: string, value: string): Promise<void> => {
      const rows = m.wrapper.findAll('input[aria-label$=" name"]').filter((i) => /^Header \d+ name$/.test(i.attributes('aria-label')!)).length;
      button(m.wrapper, 'Add header').click();
      await flushPromises();
      await m.wrapper.find(`input[aria-label="Header ${rows + 1} name"]`).setValue(name);
      await m.wrapper.find(`input[aria-label="Header ${rows + 1} value"]`).setValue(value);
    };
    await addHeader('Authorization', 'Bearer x');
    expect(sendReason()).toContain("header 1: Authorization cannot be set here");
    button(m.wrapper, 'Remove header 1').click();
    await flushPromises();
    await addHeader('x-sandbox-video-fail', 'internal_error');
    button(m.wrapper, 'Create').click();
    await flushPromises();
    const created = m.fake.controls.calls.filter((c) => c.method === 'videos.create').map((c) => c.input);
    expect(created).toEqual([{ mode: 'generate', model: 'svc-video-1', prompt: 'a heron', headers: { 'x-sandbox-video-fail': 'internal_error' } }]);
  });

  it('estimates the cost before sending from the shared video rates, by mode', async () => {
    await open();
    const estimate = (): string => m.wrapper.find('[data-testid="cost-estimate"]').text();
    // The defaults: 8 s at 720p, 10 cents a second on the sandbox.
    expect(estimate()).toBe('Estimated cost: $0.80 (8 s at 720p, $0.10 per second)');
    useVideoFormStore(m.pinia).form.durations = { generate: 4, extend: null };
    useVideoFormStore(m.pinia).form.resolution = '1080p';
    await flushPromises();
    expect(estimate()).toBe('Estimated cost: $0.80 (4 s at 1080p, $0.20 per second)');
    await chooseMode('Extend');
    expect(estimate()).toBe("Estimated cost: $0.30–$1.20 (6 s at the input video's resolution)");
    await chooseMode('Edit');
    expect(estimate()).toMatch(/^Estimated cost: \$0\.05–\$0\.20 per second of the input video/);
  });

  it('fills in a file name from the prompt when "store in Files" is ticked, and says what to do when it is emptied', async () => {
    await open();
    await m.wrapper.find('#video-prompt').setValue('a heron takes off');
    useVideoFormStore(m.pinia).form.storage.enabled = true;
    await flushPromises();
    expect((m.wrapper.find('#video-store-name').element as HTMLInputElement).value).toBe('heron-takes-off.mp4');
    await m.wrapper.find('#video-store-name').setValue('');
    expect(sendReason()).toBe('Can\'t send: name the file to store the video as (e.g. heron.mp4), or untick "Also store the video as a file"');
  });

  it('marks the card of ?job=<id> (the gallery’s "Video job" link) and gives it the focus', async () => {
    const other = makeVideoJob({ id: 'job_other', cardId: 'card_other', createdAt: NOW });
    await open('/videos?job=job_1', { videoJobs: [other, makeVideoJob({ state: 'done', finishedAt: NOW, video: makeVideoItem() })] });
    await flushPromises();
    expect(m.wrapper.findAll('.job-card.highlighted').map((c) => c.attributes('data-job-id'))).toEqual(['job_1']);
    expect(document.activeElement?.getAttribute('data-job-id')).toBe('job_1');
  });
});
