import { createRequire } from 'node:module';
import { chooseDisplayName, fixedCountryName } from '../../../shared/display-name.js';

const require = createRequire(import.meta.url);

/** ISO alpha-3 → short common name, read once from `world-countries` when first needed. */
let commonNames: Map<string, string> | null = null;

function common(iso: string): string | undefined {
  if (!commonNames) {
    const world = require('world-countries') as { cca3: string; name: { common: string } }[];
    commonNames = new Map(world.map((c) => [c.cca3 === 'UNK' ? 'XKX' : c.cca3, c.name.common]));
  }
  return commonNames.get(iso.toUpperCase());
}

/**
 * A country's name as the SPA shows it (shared/display-name.ts), for what the BFF writes
 * itself: spreadsheets, alerts, webhooks and e-mails, so a country has one name everywhere.
 */
export function displayName(iso: string, dataName: string | null | undefined): string {
  return fixedCountryName(iso) ?? chooseDisplayName(common(iso), dataName ?? iso);
}

/** A country's short common name when no data names it (an override's notice), else its code. */
export function nameOfCode(iso: string): string {
  return fixedCountryName(iso) ?? common(iso) ?? iso;
}
