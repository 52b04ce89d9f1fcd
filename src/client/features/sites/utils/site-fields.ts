import {
  NEARBY_MAX_KM,
  SITE_MIN_DELTA_MAX,
  SITE_NAME_MAX,
  SITE_PEOPLE_MAX,
  SITE_REF_MAX,
  SITE_TAG_MAX,
  SITE_TAGS_MAX,
} from '../../../../shared/sites-api';
import { formatLanguage } from '../../../lib/format';
import { t } from '../../../lib/i18n';

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

/** Problems the schema and the server word alike whatever the field, by their English words. */
const SPECIFIC: ReadonlyArray<[RegExp, () => string]> = [
  [/already has this ref/, () => t('sites.problemRefTaken')],
  [/looks like a spreadsheet formula/, () => t('sites.problemFormula')],
  [/must not contain control/, () => t('sites.problemControl')],
  [/^the point is\b/, () => t('sites.problemPoint')],
  [/only for kind "travel"/, () => t('sites.problemTripOnly')],
  [/must not be after to/, () => t('sites.problemTripOrder')],
];

/** What each field takes, said when its value was refused. */
const EXPECTED: Record<SiteField, () => string> = {
  ref: () => t('sites.problemRef', { max: SITE_REF_MAX }),
  name: () => t('sites.problemName', { max: SITE_NAME_MAX }),
  kind: () => t('sites.problemKind'),
  lat: () => t('sites.problemLat'),
  lng: () => t('sites.problemLng'),
  iso: () => t('sites.problemIso'),
  people: () => t('sites.problemPeople', { max: SITE_PEOPLE_MAX }),
  value: () => t('sites.problemValue'),
  currency: () => t('sites.problemCurrency'),
  tags: () => t('sites.problemTags', { count: SITE_TAGS_MAX, max: SITE_TAG_MAX }),
  from: () => t('sites.problemFrom'),
  to: () => t('sites.problemTo'),
  alert_on: () => t('sites.problemAlertOn'),
  radius_km: () => t('sites.problemRadius', { max: NEARBY_MAX_KM }),
  min_delta: () => t('sites.problemMinDelta', { max: SITE_MIN_DELTA_MAX }),
};

/** True when `message` is the schema's or the BFF's English (it names an API field). */
function apiWords(message: string): boolean {
  const rest = message.replace(/^[a-z_]+(?:\.[a-z_0-9]+)*:\s*/, '');
  return rest !== message || leadingName(rest) !== null || /^a site may have\b/.test(rest);
}

/**
 * A problem with `field` as the page says it (issue 34): English shows the schema's or the
 * server's own words (`problemWords`); another language says the same in its words, the
 * particular problem where it is a known one (a taken ref, a formula), else what the field
 * takes. Words already in the page's language (the form's own) are shown as they are.
 */
export function siteProblemWords(field: SiteField, message: string): string {
  if (formatLanguage() === 'en') return problemWords(message);
  const specific = SPECIFIC.find(([pattern]) => pattern.test(message));
  if (specific) return specific[1]();
  return apiWords(message) ? EXPECTED[field]() : message;
}
