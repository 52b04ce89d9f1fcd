import type { Plugin } from 'vite';
import { LEARNED_TIER_RAMP } from '../../src/shared/tier-scale.ts';
import { KNOWN_TIERS, TIER_COLOURS, UNKNOWN_TIER_COLOUR } from '../../src/shared/tiers.ts';

const MODULE_ID = 'virtual:tier-colours.css';
const RESOLVED_ID = `\0${MODULE_ID}`;

/**
 * `virtual:tier-colours.css`: the tier colours of src/shared/tiers.ts (their one source) as CSS
 * custom properties on `:root`, in the stylesheet. Set from a script they came too late for the
 * server's first frame (issue 32), whose badges, dots and brand mark were drawn colourless until
 * the JavaScript ran; a stylesheet also needs no 'unsafe-inline' under the CSP.
 */
export function tierColours(): Plugin {
  return {
    name: 'tier-colours',
    resolveId: (id) => (id === MODULE_ID ? RESOLVED_ID : null),
    load: (id) => (id === RESOLVED_ID ? tierColoursCss() : null),
  };
}

export function tierColoursCss(): string {
  const lines: string[] = [];
  const add = (name: string, colour: { fill: string; text: string }) =>
    lines.push(`  --tier-${name}-fill: ${colour.fill};`, `  --tier-${name}-text: ${colour.text};`);
  for (const tier of KNOWN_TIERS) add(tier, TIER_COLOURS[tier]);
  add('other', UNKNOWN_TIER_COLOUR);
  LEARNED_TIER_RAMP.forEach((colour, step) => add(`learned-${step}`, colour));
  return `:root {\n${lines.join('\n')}\n}\n`;
}
