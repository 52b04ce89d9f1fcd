import {
  DEFAULT_SITE_ALERT,
  NEARBY_MAX_KM,
  SITE_MIN_DELTA_MAX,
  siteAlertSchema,
  siteInputSchema,
  type Site,
  type SiteAlert,
  type SiteInput,
  type SiteKind,
} from '../../../../shared/sites-api';
import { activeFormatLocale } from '../../../lib/format';
import { t } from '../../../lib/i18n';
import { fieldOfPath, type FieldProblems } from './site-fields';

/**
 * The site form's fields as typed (text, so a half-typed number stays on screen), and the body
 * `PUT /api/sites/:id` (or an import row) is built from them: every field of `siteInputSchema`.
 */
export interface SiteDraft {
  ref: string;
  name: string;
  kind: SiteKind;
  lat: string;
  lng: string;
  /** The chosen country (none: the BFF finds it from the point). */
  iso: readonly string[];
  people: string;
  value: string;
  currency: string;
  /** Comma-separated. */
  tags: string;
  from: string;
  to: string;
  alertOn: boolean;
  radius: string;
  minDelta: string;
}

const text = (value: number | null | undefined): string =>
  value === null || value === undefined ? '' : String(value);

export function draftOf(site: Site | null): SiteDraft {
  const alert = site?.alert ?? DEFAULT_SITE_ALERT;
  return {
    ref: site?.ref ?? '',
    name: site?.name ?? '',
    kind: site?.kind ?? 'office',
    lat: text(site?.lat),
    lng: text(site?.lng),
    // A country the BFF found from the point stays unchosen: moving the point finds it again.
    iso: site && site.placed_by === 'given' ? [site.iso] : [],
    people: text(site?.people),
    value: text(site?.value),
    currency: site?.currency ?? '',
    tags: site?.tags.join(', ') ?? '',
    from: site?.from ?? '',
    to: site?.to ?? '',
    alertOn: alert.on,
    radius: text(alert.radius_km),
    minDelta: text(alert.min_delta),
  };
}

/** A typed number: empty is "none" (null); anything else as JS reads it ("abc" is NaN, refused). */
function numberOf(typed: string): number | null {
  const trimmed = typed.trim();
  return trimmed === '' ? null : Number(trimmed);
}

function alertOf(draft: SiteDraft) {
  return {
    on: draft.alertOn,
    radius_km: numberOf(draft.radius),
    min_delta: numberOf(draft.minDelta),
  };
}

/** The body as the form would send it, before validation. */
export function bodyOf(draft: SiteDraft, withRule: boolean): Record<string, unknown> {
  const travel = draft.kind === 'travel';
  return {
    ref: draft.ref,
    name: draft.name,
    kind: draft.kind,
    lat: numberOf(draft.lat),
    lng: numberOf(draft.lng),
    iso: draft.iso[0] ?? null,
    people: numberOf(draft.people),
    value: numberOf(draft.value),
    currency: draft.currency.trim() === '' ? null : draft.currency.trim(),
    tags: draft.tags
      .split(',')
      .map((tag) => tag.trim())
      .filter((tag) => tag !== ''),
    // Trip dates belong to travel only (the BFF refuses them on other kinds): a kind changed
    // away from travel drops them rather than failing on fields no longer shown.
    from: travel && draft.from !== '' ? draft.from : null,
    to: travel && draft.to !== '' ? draft.to : null,
    ...(withRule ? { alert: alertOf(draft) } : {}),
  };
}

/**
 * The draft checked with the schema the BFF checks with: the input to send, or every problem
 * found, each at its field (the first one per field).
 */
export function checkDraft(
  draft: SiteDraft,
  withRule: boolean,
): { ok: true; input: SiteInput } | { ok: false; problems: FieldProblems } {
  const parsed = siteInputSchema.safeParse(bodyOf(draft, withRule));
  if (parsed.success) return { ok: true, input: parsed.data };
  const problems: FieldProblems = {};
  for (const issue of parsed.error.issues) {
    const field = fieldOfPath(issue.path.map(String), issue.message);
    problems[field] ??= issue.message;
  }
  return { ok: false, problems };
}

/** The rule as typed, when it is a valid rule. */
export function ruleOf(draft: SiteDraft): SiteAlert | null {
  const parsed = siteAlertSchema.safeParse(alertOf(draft));
  return parsed.success ? parsed.data : null;
}

/** The rule's numbers in the page's digits (a move may have decimals: 2.5). */
const number = (value: number): string => value.toLocaleString(activeFormatLocale());

/**
 * What the site rule will do, in one sentence: "Alerts when any country within 100 km of this
 * site rises a tier or its active score moves by 10 or more."
 */
export function ruleSentence(rule: SiteAlert | null, kind: SiteKind): string {
  if (rule === null) {
    return t('sites.ruleInvalid', {
      km: number(NEARBY_MAX_KM),
      points: number(SITE_MIN_DELTA_MAX),
    });
  }
  if (!rule.on) return t('sites.ruleOff');
  const delta = number(rule.min_delta);
  const trip = kind === 'travel';
  if (rule.radius_km === 0) {
    return trip ? t('sites.ruleOwnCountryTrip', { delta }) : t('sites.ruleOwnCountry', { delta });
  }
  const km = number(rule.radius_km);
  return trip ? t('sites.ruleWithinTrip', { km, delta }) : t('sites.ruleWithin', { km, delta });
}
