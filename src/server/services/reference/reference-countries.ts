import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { fixedCountryName } from '../../../shared/display-name.js';
import type { ReferenceCountry } from '../../../shared/history-api.js';
import { compress, pickEncoding, type Encoded, type Encoding } from '../../cache/encoding.js';
import { JSON_TYPE, type Served } from '../rendering/render.js';

const require = createRequire(import.meta.url);

/** The fields of mledoze/countries (`world-countries`) that the reference list reads. */
interface WorldCountry {
  cca2: string;
  cca3: string;
  status: string;
  name: { common: string; official: string };
  altSpellings: string[];
  region: string;
  subregion: string;
}

interface IsoNames {
  registerLocale(locale: unknown): void;
  getName(code: string, lang: string, options: { select: 'all' }): string[] | undefined;
}

/**
 * Kosovo has no ISO 3166-1 code; world-countries files it under the user-assigned `UNK`, while
 * the map (build-world-shapes.ts) and most data providers use `XKX`. It is the one country kept
 * outside the officially assigned codes, under the code the rest of the product uses.
 */
const USER_ASSIGNED_CODES: Record<string, string> = { UNK: 'XKX' };

/**
 * Names people type that neither package lists. Kept short: each line says why it is needed.
 * (Checked: "UK", "Great Britain", "Ivory Coast", "Burma", "Russia", "South Korea" and "Iran"
 * are all in the packages' own names.)
 */
const EXTRA_ALIASES: Record<string, string[]> = {
  USA: ['America'], // the everyday short form; the packages have only "USA", "US"
};

function uniqueAliases(name: string, candidates: readonly string[]): string[] {
  const seen = new Set([name.toLowerCase()]);
  const aliases: string[] = [];
  for (const candidate of candidates) {
    const text = candidate.trim();
    const key = text.toLowerCase();
    if (text === '' || seen.has(key)) continue;
    seen.add(key);
    aliases.push(text);
  }
  return aliases;
}

/** Every ISO 3166-1 country with names, aliases and its UN geoscheme region, sorted by name. */
export function buildReferenceCountries(): ReferenceCountry[] {
  const world = require('world-countries') as WorldCountry[];
  const isoNames = require('i18n-iso-countries') as IsoNames;
  isoNames.registerLocale(require('i18n-iso-countries/langs/en.json'));
  const list: ReferenceCountry[] = [];
  for (const country of world) {
    const iso =
      country.status === 'officially-assigned' ? country.cca3 : USER_ASSIGNED_CODES[country.cca3];
    if (iso === undefined) continue;
    const name = fixedCountryName(iso) ?? country.name.common;
    list.push({
      iso,
      name,
      official_name: country.name.official,
      aliases: uniqueAliases(name, [
        country.name.common,
        ...(isoNames.getName(iso, 'en', { select: 'all' }) ?? []),
        ...country.altSpellings,
        ...(EXTRA_ALIASES[iso] ?? []),
        country.cca2,
      ]),
      region: country.region || null,
      subregion: country.subregion || null,
    });
  }
  return list.sort((a, b) => a.name.localeCompare(b.name, 'en'));
}

let namesByIso: ReadonlyMap<string, string> | null = null;

/** A code's name in that list (built once), or null for a code it does not hold. */
export function referenceName(iso: string): string | null {
  namesByIso ??= new Map(buildReferenceCountries().map((country) => [country.iso, country.name]));
  return namesByIso.get(iso) ?? null;
}

/** The codes of that list: what a country named by a person (a note's) must be. */
export function referenceIsoSet(): ReadonlySet<string> {
  return new Set(buildReferenceCountries().map((country) => country.iso));
}

/** Seconds browsers and proxies may keep the list: it changes only with a new release. */
const MAX_AGE_SECONDS = 24 * 60 * 60;

/** The whole answer, built once per app: a strong ETag (the bytes never change while it runs). */
export function referenceCountriesServed(): Served {
  const body = Buffer.from(JSON.stringify({ ok: true, countries: buildReferenceCountries() }));
  const etag = `"ref-${createHash('sha1').update(body).digest('base64url')}"`;
  return {
    status: 200,
    contentType: JSON_TYPE,
    body,
    headers: { etag, 'cache-control': `public, max-age=${MAX_AGE_SECONDS}` },
    outcome: null,
    compress: staticCompressor(body, etag),
  };
}

/** A body that never changes: each encoding is compressed once, on first demand. */
function staticCompressor(
  body: Buffer,
  etag: string,
): (acceptEncoding: string | string[] | undefined) => (Encoded & { encoding: Encoding }) | null {
  const forms: Partial<Record<Encoding, Encoded>> = {};
  return (acceptEncoding) => {
    const encoding = pickEncoding(acceptEncoding);
    if (encoding === null) return null;
    const encoded = (forms[encoding] ??= compress(body, etag, encoding));
    return { ...encoded, encoding };
  };
}
