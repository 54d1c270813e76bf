// A family is one module per layer (shared, main, renderer), each assembled by one list. A family
// registered in one layer's list and not in another's would half-exist (a nav entry with no view,
// recorded runs with no History entry, a contract with no handlers): this fails first.
import { describe, expect, it } from 'vitest';
import { contract } from '../../../shared/contract';
import { FAMILIES, NAV_ENTRIES } from '../../../shared/families';
import { MAIN_FAMILIES } from '../../../main/families';

/**
 * The renderer's list, imported by a path the type check does not follow: the node project does
 * not type-check renderer sources (their aliases and .vue files are the web project's); vitest
 * loads them as the renderer tests do.
 */
interface RendererList {
  RENDERER_FAMILIES: ReadonlyArray<{ id: string; historyEntry: unknown }>;
  NAV_ICONS: Record<string, unknown>;
  NAV_ROUTES: ReadonlyArray<{ path: string }>;
}
const RENDERER_LIST = '../../../renderer/src/families/index.ts';
const { NAV_ICONS, NAV_ROUTES, RENDERER_FAMILIES } = (await import(/* @vite-ignore */ RENDERER_LIST)) as RendererList;

const ids = (list: ReadonlyArray<{ id: string }>) => list.map((f) => f.id).sort();

describe('family registration', () => {
  it('registers the same families in shared, main and the renderer, each once', () => {
    const shared = ids(FAMILIES);
    expect(new Set(shared).size).toBe(shared.length);
    expect({ main: ids(MAIN_FAMILIES), renderer: ids(RENDERER_FAMILIES) }).toEqual({ main: shared, renderer: shared });
  });

  it("puts every family's operations in the contract under its own key, a different one each", () => {
    const keys = FAMILIES.map((f) => f.contract.key);
    expect(new Set(keys).size).toBe(keys.length);
    const declared = contract as Record<string, unknown>;
    for (const family of FAMILIES) expect(declared[family.contract.key] === family.contract.ops, family.id).toBe(true);
  });

  it("answers, in main, the contract family its shared family declares", () => {
    const keyOf = new Map(FAMILIES.map((f) => [f.id as string, f.contract.key as string]));
    expect(Object.fromEntries(MAIN_FAMILIES.map((f) => [f.id, f.contract]))).toEqual(Object.fromEntries(MAIN_FAMILIES.map((f) => [f.id, keyOf.get(f.id)])));
  });

  it("answers each main family's contract family, a different one each", () => {
    const answered = MAIN_FAMILIES.map((f) => f.contract);
    expect(new Set(answered).size).toBe(answered.length);
    for (const family of MAIN_FAMILIES) expect(Object.keys(contract), family.id).toContain(family.contract);
  });

  it('gives every family with a nav entry a view and an icon in the renderer', () => {
    const routed = NAV_ROUTES.map((r) => r.path);
    for (const family of FAMILIES) {
      if (!family.nav) continue;
      expect(routed, family.id).toContain(family.nav.route);
      expect(NAV_ICONS[family.nav.icon], family.id).toBeTypeOf('function');
    }
    expect(NAV_ENTRIES.length).toBe(routed.filter((p) => NAV_ENTRIES.some((e) => e.route === p)).length);
  });

  it('gives every family with a History entry of its own (uploads, media) a component for it, and the text ones none', () => {
    for (const family of FAMILIES) {
      const r = RENDERER_FAMILIES.find((x) => x.id === family.id);
      if (Object.keys(family.endpoints).length === 0) continue;
      expect({ id: family.id, component: r?.historyEntry != null }).toEqual({ id: family.id, component: family.entry !== 'text' });
    }
  });
});
