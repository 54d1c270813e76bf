/**
 * The list of families in the renderer (one module each, see README.md) and what is derived from
 * it with the shared list: the nav's icons, the routes of the nav's views, and History's entry
 * component per family. Adding a family is its folder plus one line in RENDERER_FAMILIES.
 */
import type { Component } from 'vue';
import type { RouteRecordRaw } from 'vue-router';
import type { RunRecord } from '@shared/contract/runs';
import { FAMILIES, familyOfEndpoint, NAV_ENTRIES, type FamilyId, type NavEntry } from '@shared/families';
import { APP_VIEWS } from './app-views';
import { chatRenderer } from './chat/family';
import { filesRenderer } from './files/family';
import { imagesRenderer } from './images/family';
import { legacyRenderer } from './legacy/family';
import { messagesRenderer } from './messages/family';
import { modelsRenderer } from './models/family';
import { realtimeRenderer } from './realtime/family';
import { responsesRenderer } from './responses/family';
import { sipRenderer } from './sip/family';
import { speechRenderer } from './speech/family';
import { transcriptionRenderer } from './transcription/family';
import type { IconDrawing, LazyView, RendererFamily } from './types';
import { videosRenderer } from './videos/family';
import { voicesRenderer } from './voices/family';

export type { IconDrawing, RendererFamily } from './types';

export const RENDERER_FAMILIES = [chatRenderer, responsesRenderer, messagesRenderer, legacyRenderer, filesRenderer, imagesRenderer, videosRenderer, speechRenderer, modelsRenderer, transcriptionRenderer, voicesRenderer, realtimeRenderer, sipRenderer] as const satisfies readonly RendererFamily[];

function rendererOf(id: FamilyId): RendererFamily | undefined {
  return (RENDERER_FAMILIES as readonly RendererFamily[]).find((f) => f.id === id);
}

/** What the nav shows for `entry`: its family's (or the app view's) icon and view. */
function partsOf(entry: NavEntry): { icon: IconDrawing | null; view: LazyView | null } {
  const app = (APP_VIEWS as Record<string, { icon: IconDrawing; view: LazyView }>)[entry.route];
  if (app) return app;
  const family = FAMILIES.find((f) => f.nav?.route === entry.route);
  const r = family ? rendererOf(family.id) : undefined;
  return { icon: r?.icon ?? null, view: r?.view ?? null };
}

/** Each nav icon name's drawing (NavIcon.vue). */
export const NAV_ICONS: Record<string, IconDrawing> = Object.fromEntries(
  NAV_ENTRIES.flatMap((entry) => {
    const icon = partsOf(entry).icon;
    return icon ? [[entry.icon, icon]] : [];
  }),
);

/** The routes of the nav's views, in nav order, then the families' own other routes. */
export const NAV_ROUTES: RouteRecordRaw[] = [
  ...(NAV_ENTRIES as readonly NavEntry[]).flatMap((entry): RouteRecordRaw[] => {
    const view = partsOf(entry).view;
    return view ? [{ path: entry.route, name: entry.route.slice(1), component: view, meta: { title: entry.title ?? entry.label } }] : [];
  }),
  ...RENDERER_FAMILIES.flatMap((f): RouteRecordRaw[] => [...((f as RendererFamily).routes ?? [])]),
];

/** The component History shows a run of `endpoint` with, or null for the text layout. */
export function historyEntryOf(endpoint: string): Component<{ record: RunRecord }> | null {
  const family = familyOfEndpoint(endpoint);
  return (family && rendererOf(family)?.historyEntry) || null;
}

/** The families' components the shell mounts over every view (RendererFamily.shell). */
export const SHELL_COMPONENTS = (RENDERER_FAMILIES as readonly RendererFamily[]).flatMap((f) => (f.shell ? [f.shell] : []));
