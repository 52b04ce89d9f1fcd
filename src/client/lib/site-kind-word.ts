import type { SiteKind } from '../../shared/sites-api';
import { t } from './i18n';

/** Each kind's message (keys without `kind_other`, which i18next would read as a plural). */
const KIND_WORDS = {
  office: 'sites.kindOffice',
  plant: 'sites.kindPlant',
  warehouse: 'sites.kindWarehouse',
  project: 'sites.kindProject',
  residence: 'sites.kindResidence',
  travel: 'sites.kindTravel',
  other: 'sites.kindOther',
} as const satisfies Record<SiteKind, string>;

/** A site kind in the page's language ("entrepôt"); a kind this page does not know, as sent. */
export function kindWord(kind: string): string {
  return Object.hasOwn(KIND_WORDS, kind) ? t(KIND_WORDS[kind as SiteKind]) : kind;
}
