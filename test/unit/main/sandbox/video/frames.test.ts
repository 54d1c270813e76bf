/**
 * The synthetic frames and the plans they are drawn from: the same plan draws the same pixels, an
 * extension's first frame is exactly its input's last, an edit visibly changes every frame, and
 * the timing and price formulas the README documents.
 */
import { describe, expect, it } from 'vitest';
import { renderFrame, type ScenePlan } from '../../../../../main/sandbox/video/frames';
import {
  costTicks,
  editPlan,
  extensionPlan,
  generationPlan,
  planKey,
  promptColors,
  renderSeconds,
  resolutionOf,
  type InputVideo,
} from '../../../../../main/sandbox/video/plan';

const scene = (prompt = 'a red fox in blue snow') =>
  generationPlan({ prompt, aspectRatio: '16:9', resolution: '480p', duration: 2, background: null, tiles: [], voices: [], salt: 'svc-video-1' });

function draw(plan: ScenePlan, s: number): Uint8Array {
  const out = new Uint8Array(plan.width * plan.height * 4);
  renderFrame(plan, s, out, { background: null, tiles: [] });
  return out;
}

/** Byte equality (toEqual on megabytes of pixels is slow). */
function same(a: Uint8Array, b: Uint8Array): boolean {
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));
}

function meanDiff(a: Uint8Array, b: Uint8Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs(a[i] - b[i]);
  return sum / a.length;
}

const input = (plan: ScenePlan): InputVideo => ({ hash: 'ab'.repeat(32), info: { brand: 'isom', durationSeconds: 2, width: plan.width, height: plan.height, codec: 'avc1' }, plan });

describe('video plans and frames', () => {
  it('draws the same pixels for the same plan and frame, and moves between frames', () => {
    const plan = scene();
    expect(plan).toMatchObject({ width: 854, height: 480, fps: 12, frames: 24, startFrame: 0 });
    expect(same(draw(plan, 5), draw(scene(), 5))).toBe(true);
    expect(planKey(plan)).toBe(planKey(scene()));
    expect(planKey(plan)).not.toBe(planKey(scene('a green field')));
    expect(meanDiff(draw(plan, 0), draw(plan, 12))).toBeGreaterThan(1);
  });

  it("starts an extension on exactly its input's last frame, then adds to it", () => {
    const plan = scene();
    const ext = extensionPlan(input(plan), 'a yellow bird lands', 3);
    expect(ext).toMatchObject({ startFrame: 23, frames: 36, width: plan.width, height: plan.height });
    expect(same(draw(ext, ext.startFrame), draw(plan, plan.startFrame + plan.frames - 1))).toBe(true);
    expect(same(draw(ext, ext.startFrame), draw(plan, plan.startFrame + plan.frames - 2))).toBe(false);
    // A second later the new square has faded in: the scene differs from the input's plan there.
    expect(meanDiff(draw(ext, ext.startFrame + 12), draw(plan, ext.startFrame + 12))).toBeGreaterThan(0.5);
  });

  it('keeps length and size on an edit and changes every frame', () => {
    const plan = scene();
    const edit = editPlan(input(plan), 'make it look like a green neon sign');
    expect(edit).toMatchObject({ startFrame: 0, frames: 24, width: 854, height: 480 });
    expect(meanDiff(draw(edit, 0), draw(plan, 0))).toBeGreaterThan(10);
    // An extension of the edit continues the edited look.
    const ext = extensionPlan(input(edit), 'then it rains', 2);
    expect(same(draw(ext, ext.startFrame), draw(edit, 23))).toBe(true);
  });

  it('makes a foreign MP4 a stand-in scene of its size and length', () => {
    const foreign: InputVideo = { hash: 'cd'.repeat(32), info: { brand: 'isom', durationSeconds: 3.4, width: 1920, height: 1080, codec: 'hvc1' }, plan: null };
    expect(editPlan(foreign, 'sepia')).toMatchObject({ width: 1920, height: 1080, frames: 36 });
    const big: InputVideo = { ...foreign, info: { ...foreign.info, width: 3840, height: 2160 } };
    expect(editPlan(big, 'sepia')).toMatchObject({ width: 1920, height: 1080 });
    expect(extensionPlan(foreign, 'more', 2)).toMatchObject({ startFrame: 35, frames: 24 });
  });

  it('takes colours from colour words in the prompt, then from its hash', () => {
    expect(promptColors('a red fox in blue snow').slice(0, 3)).toEqual([
      [214, 40, 40],
      [33, 102, 220],
      [232, 240, 248],
    ]);
    expect(promptColors('zebra crossing')).toEqual(promptColors('zebra crossing'));
    expect(promptColors('zebra crossing')).toHaveLength(4);
  });

  it('documents its timing and prices', () => {
    expect(renderSeconds(8, '720p')).toBe(14);
    expect(renderSeconds(1, '480p')).toBe(6.5);
    expect(renderSeconds(15, '1080p')).toBe(30);
    expect(costTicks(8, '720p')).toBe(8_000_000_000);
    expect(costTicks(1, '480p')).toBe(500_000_000);
    expect(costTicks(10, '1080p')).toBe(20_000_000_000);
    expect(resolutionOf(854, 480)).toBe('480p');
    expect(resolutionOf(720, 1280)).toBe('720p');
    expect(resolutionOf(1920, 1080)).toBe('1080p');
  });
});
