/**
 * The PrimeVue theme: Aura, with the light scheme's colours darkened where Aura's defaults fail
 * WCAG AA contrast (axe-core's `color-contrast`, run on every view by the e2e suite). Emerald 500
 * under white text is 2.5:1, orange 500 2.8:1 and red 500 3.8:1; the shades used here are above
 * 4.5:1, for solid buttons, text and outlined ones alike, and for messages. The dark scheme
 * already passes and is left as Aura ships it.
 */
import { definePreset } from '@primeuix/themes';
import Aura from '@primeuix/themes/aura';

/** A solid button of `palette` at `shade` (hover and active one and two shades darker). */
function solid(palette: string, shade: number) {
  const at = (n: number) => `{${palette}.${n}}`;
  return {
    background: at(shade),
    hoverBackground: at(shade + 100),
    activeBackground: at(shade + 200),
    borderColor: at(shade),
    hoverBorderColor: at(shade + 100),
    activeBorderColor: at(shade + 200),
    color: '#ffffff',
    hoverColor: '#ffffff',
    activeColor: '#ffffff',
  };
}

/** Each severity's palette and the shades that reach 4.5:1 against white: solid, then text. */
const SEVERITIES = {
  danger: ['red', 600, 600],
  success: ['green', 700, 700],
  info: ['sky', 700, 700],
  warn: ['orange', 700, 700],
  help: ['purple', 600, 600],
} as const;

/** The text shade of each message severity in the light scheme. */
const MESSAGE_TEXT = {
  info: '{blue.700}',
  success: '{green.700}',
  warn: '{yellow.800}',
  error: '{red.700}',
  secondary: '{surface.600}',
} as const;

const bySeverity = <T>(make: (palette: string, solidShade: number, textShade: number) => T) =>
  Object.fromEntries(Object.entries(SEVERITIES).map(([name, [palette, s, t]]) => [name, make(palette, s, t)]));

/** Aura with accessible light-scheme contrast. */
export const WorkbenchPreset = definePreset(Aura, {
  semantic: {
    // Aura marks a focused field (input, select, text area) by its border colour alone; a keyboard
    // user needs a ring, so fields get one like the buttons' (both schemes).
    formField: { focusRing: { width: '2px', style: 'solid', color: '{primary.color}', offset: '-1px', shadow: 'none' } },
    colorScheme: {
      light: {
        primary: { color: '{primary.700}', contrastColor: '#ffffff', hoverColor: '{primary.800}', activeColor: '{primary.900}' },
        highlight: { background: '{primary.50}', focusBackground: '{primary.100}', color: '{primary.800}', focusColor: '{primary.900}' },
        // The muted text sits on surface.100 backgrounds too (toggle buttons, hovered rows).
        text: { mutedColor: '{surface.600}' },
      },
    },
  },
  components: {
    button: {
      colorScheme: {
        light: {
          root: bySeverity((palette, shade) => solid(palette, shade)),
          outlined: bySeverity((palette, _s, text) => ({ color: `{${palette}.${text}}` })),
          text: bySeverity((palette, _s, text) => ({ color: `{${palette}.${text}}` })),
        },
      },
    },
    // Messages (notes, warnings, errors) are tinted text on a pale tint of the same hue: Aura's
    // 600 shades fail on them (yellow 2.8:1, green 3.1:1); these are 4.8:1 or more.
    message: {
      colorScheme: {
        light: Object.fromEntries(
          Object.entries(MESSAGE_TEXT).map(([name, color]) => [name, { color, outlined: { color, borderColor: color }, simple: { color } }]),
        ),
      },
    },
    togglebutton: {
      colorScheme: {
        light: { root: { color: '{surface.600}' }, icon: { color: '{surface.600}' } },
      },
    },
  },
});
