/**
 * The PrimeVue theme: Aura, with the light scheme's colours darkened where Aura's defaults fail
 * WCAG AA contrast (axe-core's `color-contrast`, run on every view by the e2e suite). Emerald 500
 * under white text is 2.5:1 and red 500 is 3.8:1; 700 and 600 are above 4.5:1. The dark scheme
 * already passes and is left as Aura ships it.
 */
import { definePreset } from '@primeuix/themes';
import Aura from '@primeuix/themes/aura';

const DANGER_SOLID = {
  background: '{red.600}',
  hoverBackground: '{red.700}',
  activeBackground: '{red.800}',
  borderColor: '{red.600}',
  hoverBorderColor: '{red.700}',
  activeBorderColor: '{red.800}',
};

/** Aura with accessible light-scheme contrast. */
export const WorkbenchPreset = definePreset(Aura, {
  semantic: {
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
          root: { danger: DANGER_SOLID },
          outlined: { danger: { color: '{red.600}' } },
          text: { danger: { color: '{red.600}' } },
        },
      },
    },
    togglebutton: {
      colorScheme: {
        light: { root: { color: '{surface.600}' }, icon: { color: '{surface.600}' } },
      },
    },
  },
});
