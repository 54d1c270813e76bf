/**
 * What a family's renderer module is (see README.md): its shared id, the drawing of its nav icon,
 * the views its routes open (its nav entry's route first), and the component History shows a run
 * of it with (null: the text layout of sent turns and output).
 */
import type { Component, FunctionalComponent } from 'vue';
import type { RouteRecordRaw } from 'vue-router';
import type { RunRecord } from '@shared/contract/runs';
import type { FamilyId } from '@shared/families';

/** A nav icon: the inside of a 24×24 line drawing (NavIcon.vue draws the <svg> around it). */
export type IconDrawing = FunctionalComponent;

/** A view loaded when first opened. */
export type LazyView = () => Promise<Component>;

export interface RendererFamily {
  readonly id: FamilyId;
  /** Its nav icon (the family's shared nav entry names it). */
  readonly icon: IconDrawing | null;
  /** The view of its nav entry's route. */
  readonly view: LazyView | null;
  /** Other routes of its own (none yet). */
  readonly routes?: readonly RouteRecordRaw[];
  /** History's entry for a run of this family, or null for the text layout. */
  readonly historyEntry: Component<{ record: RunRecord }> | null;
  /** Mounted by the app shell over every view (a ringing call's banner); none for most families. */
  readonly shell?: Component;
}
