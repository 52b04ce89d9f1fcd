/** The fields of the site form that a problem can be shown next to. */
export type SiteField =
  | 'ref'
  | 'name'
  | 'kind'
  | 'lat'
  | 'lng'
  | 'iso'
  | 'people'
  | 'value'
  | 'currency'
  | 'tags'
  | 'from'
  | 'to'
  | 'alert_on'
  | 'radius_km'
  | 'min_delta';

export type FieldProblems = Partial<Record<SiteField, string>>;

/** The API's names (longest first, so `alert.radius_km` is not read as `alert`) → fields. */
const API_NAMES: ReadonlyArray<[string, SiteField]> = [
  ['alert.radius_km', 'radius_km'],
  ['alert.min_delta', 'min_delta'],
  ['alert.on', 'alert_on'],
  ['currency', 'currency'],
  ['people', 'people'],
  ['value', 'value'],
  ['name', 'name'],
  ['kind', 'kind'],
  ['tags', 'tags'],
  ['from', 'from'],
  ['ref', 'ref'],
  ['lat', 'lat'],
  ['lng', 'lng'],
  ['iso', 'iso'],
  ['tag', 'tags'],
  ['to', 'to'],
];

const WORDS: Record<SiteField, string> = {
  ref: 'The ref',
  name: 'The name',
  kind: 'The kind',
  lat: 'The latitude',
  lng: 'The longitude',
  iso: 'The country',
  people: 'People',
  value: 'The value',
  currency: 'The currency',
  tags: 'A tag',
  from: 'The trip start',
  to: 'The trip end',
  alert_on: 'The rule',
  radius_km: 'The radius',
  min_delta: 'The move',
};

function apiName(head: string): SiteField | null {
  return API_NAMES.find(([name]) => name === head)?.[1] ?? null;
}

/** The API name a message starts with ("lat must be…", "alert.radius_km must…"), if any. */
function leadingName(message: string): [string, SiteField] | null {
  return (
    API_NAMES.find(
      ([name]) => message.startsWith(name) && !/[a-z_.]/.test(message.charAt(name.length)),
    ) ?? null
  );
}

/**
 * The field a problem belongs to, from the path the schema gave it (`['alert', 'radius_km']`,
 * `['tags', 0]`) or, for a whole-site problem with no path ("from must not be after to"), from
 * the name its words start with. A point no country is near belongs to the latitude (the
 * point's first field).
 */
export function fieldOfPath(path: readonly string[], message: string): SiteField {
  const byPath = path[0] === 'alert' ? apiName(path.slice(0, 2).join('.')) : apiName(path[0] ?? '');
  return byPath ?? leadingName(message)?.[1] ?? 'lat';
}

/**
 * The field a server 400/409 is about: the BFF writes `path: words` (its zod problems, "ref:
 * another site already has this ref") or words that start with the field ("lat must be…");
 * a refused point ("the point is 400 km from the nearest country…") goes to the latitude.
 * Null when the words name no field at all.
 */
export function fieldOfServerProblem(message: string): SiteField | null {
  const path = /^([a-z_]+(?:\.[a-z_0-9]+)*):\s/.exec(message)?.[1];
  if (path) return fieldOfPath(path.split('.'), message.slice(path.length + 2));
  const named = leadingName(message);
  if (named) return named[1];
  return /^the point is\b/.test(message) ? 'lat' : null;
}

/**
 * The words without the API's names, first letter up: "lat: lat must be from -90 to 90
 * degrees" → "The latitude must be from -90 to 90 degrees";
 * "alert.min_delta must be from 1 to 100" → "The move must be from 1 to 100".
 */
export function problemWords(message: string): string {
  const rest = message.replace(/^[a-z_]+(?:\.[a-z_0-9]+)*:\s*/, '');
  const named = leadingName(rest);
  const words = (named ? `${WORDS[named[1]]}${rest.slice(named[0].length)}` : rest).replace(
    / after to$/,
    ' after the trip end',
  );
  return words.charAt(0).toUpperCase() + words.slice(1);
}
