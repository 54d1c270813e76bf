/** Helpers to write nav icons as render functions: small line drawings, no icon font. */
import { h, type VNode } from 'vue';
import type { IconDrawing } from './types';

type Shape = ['path', string] | ['rect', number, number, number, number, number] | ['circle', number, number, number];

function shape(s: Shape): VNode {
  switch (s[0]) {
    case 'path':
      return h('path', { d: s[1] });
    case 'rect':
      return h('rect', { x: s[1], y: s[2], width: s[3], height: s[4], rx: s[5] });
    case 'circle':
      return h('circle', { cx: s[1], cy: s[2], r: s[3] });
  }
}

/** An icon from its shapes, in drawing order. */
export function drawing(...shapes: Shape[]): IconDrawing {
  return () => shapes.map(shape);
}
