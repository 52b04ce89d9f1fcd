import type { SiteKind } from '../../../../shared/sites-api';
import { countryName } from '../../../lib/country-names';
import { displayName } from '../../../lib/display-name';
import { t } from '../../../lib/i18n';

const KIND_KEYS = {
  office: 'exposurePage.kindOffice',
  plant: 'exposurePage.kindPlant',
  warehouse: 'exposurePage.kindWarehouse',
  project: 'exposurePage.kindProject',
  residence: 'exposurePage.kindResidence',
  travel: 'exposurePage.kindTravel',
  other: 'exposurePage.kindOther',
} as const satisfies Record<SiteKind, string>;

/** A site kind in the page language ("bureau"); a kind this build does not know, as sent. */
export function kindWord(kind: string): string {
  return kind in KIND_KEYS ? t(KIND_KEYS[kind as SiteKind]) : kind;
}

/** A site's country by its code, named in the page language (CLDR; English's name otherwise). */
export function siteCountryName(iso: string): string {
  return displayName(iso, countryName(iso) ?? iso);
}
