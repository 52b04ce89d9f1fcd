import {
  EXPOSURE_PERIODS,
  EXPOSURE_WEIGHTS,
  type ExposurePeriod,
  type ExposureWeight,
} from '../../../../shared/sites-api';
import { withAsOf } from '../../../lib/as-of';
import { parseSiteFilters, siteFilterParams, type SiteFilters } from '../../../lib/site-filters';

/**
 * Everything `/exposure` shows is in its URL: the site filters (tier, country, kind, tag), the
 * index's weight (`weight=value`; people is the default) and which period "moved" compares with
 * (`moved=day|week`; the previous batch is the default). Defaults are left out of the URL.
 */
export interface ExposureView {
  filters: SiteFilters;
  weight: ExposureWeight;
  period: ExposurePeriod;
}

export const DEFAULT_WEIGHT: ExposureWeight = 'people';
export const DEFAULT_PERIOD: ExposurePeriod = 'previous_batch';

function oneOf<T extends string>(values: readonly T[], raw: string | null, fallback: T): T {
  return (values as readonly string[]).includes(raw ?? '') ? (raw as T) : fallback;
}

export function parseExposureView(params: URLSearchParams): ExposureView {
  return {
    filters: parseSiteFilters(params),
    weight: oneOf(EXPOSURE_WEIGHTS, params.get('weight'), DEFAULT_WEIGHT),
    period: oneOf(EXPOSURE_PERIODS, params.get('moved'), DEFAULT_PERIOD),
  };
}

/** The page's URL parameters for `view`, keeping any parameter the view does not own. */
export function exposureViewParams(
  view: ExposureView,
  current: URLSearchParams = new URLSearchParams(),
): URLSearchParams {
  const params = new URLSearchParams(current);
  for (const name of ['tier', 'country', 'kind', 'tag', 'weight', 'moved']) params.delete(name);
  for (const [name, value] of siteFilterParams(view.filters)) params.set(name, value);
  if (view.weight !== DEFAULT_WEIGHT) params.set('weight', view.weight);
  if (view.period !== DEFAULT_PERIOD) params.set('moved', view.period);
  return params;
}

/**
 * `/api/exposure?…`: the filters and the weight (the BFF answers every period at once), as of
 * the recorded batch `asOf` names, or the newest when null.
 */
export function exposurePath(
  filters: SiteFilters,
  weight: ExposureWeight,
  asOf: string | null = null,
): string {
  const params = siteFilterParams(filters);
  params.set('weight', weight);
  return withAsOf(`/api/exposure?${params.toString()}`, asOf);
}

/** The spreadsheet of the filtered sites with their countries' current numbers. */
export function sitesSpreadsheetPath(filters: SiteFilters): string {
  const query = siteFilterParams(filters).toString();
  return `/api/spreadsheet/sites.csv${query === '' ? '' : `?${query}`}`;
}
