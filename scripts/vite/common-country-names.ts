import { createRequire } from 'node:module';
import type { Plugin } from 'vite';

const MODULE_ID = 'virtual:common-country-names';
const RESOLVED_ID = `\0${MODULE_ID}`;

interface WorldCountry {
  cca2: string;
  cca3: string;
  name: { common: string };
}

/**
 * `virtual:common-country-names`: ISO alpha-3 → the short common name ("DR Congo", "Iran",
 * "North Korea") from the maintained `world-countries` package, computed at build time so the
 * SPA ships a 5 KB table instead of the package's 1.4 MB file. The data's formal ISO names
 * ("Congo, Democratic Republic of the") wrap to four lines on a phone.
 */
export function commonCountryNames(): Plugin {
  return {
    name: 'common-country-names',
    resolveId: (id) => (id === MODULE_ID ? RESOLVED_ID : null),
    load: (id) => {
      if (id !== RESOLVED_ID) return null;
      const require = createRequire(import.meta.url);
      const countries = require('world-countries/countries.json') as WorldCountry[];
      const names = Object.fromEntries(countries.map((c) => [c.cca3, c.name.common]));
      // alpha-3 → alpha-2 for Intl.DisplayNames (issue 34), as "AFGAF ALBAL …": about 1 KB
      // gzipped, where importing i18n-iso-countries' code table put 6.8 KB on the first load.
      const alpha2 = countries
        .filter((c) => /^[A-Z]{3}$/.test(c.cca3) && /^[A-Z]{2}$/.test(c.cca2))
        .map((c) => `${c.cca3}${c.cca2}`)
        .join(' ');
      return `export default ${JSON.stringify(names)};\nexport const alpha2 = ${JSON.stringify(alpha2)};`;
    },
  };
}
