import type { DivIcon } from 'leaflet';
import { LabelledIcon } from './labelled-icon';
import { formatInteger } from '../../../lib/format';
import { rankTier, type SitePoint } from './site-clusters';
import { tierWord } from '../../../lib/tier-words';
import { kindWord } from '../../../lib/site-kind-word';
import { t } from '../../../lib/i18n';

const tierClassOf = (tier: string | null) => (tier ? `tier-${tier}` : 'tier-none');
const tierWords = (tier: string | null) => (tier ? tierWord(tier) : t('map.noCurrentData'));

function hidden(text: string): HTMLElement {
  const label = document.createElement('span');
  label.className = 'visually-hidden';
  label.textContent = text;
  return label;
}

const SITE_SIZE = 14;

/**
 * One site: a small square (hotspots are discs), coloured by its country's tier. A focusable
 * button (Leaflet's role="button") named with textContent, never HTML: names are the user's.
 */
export function siteIcon(key: string, site: SitePoint): DivIcon {
  const people = site.people > 0 ? t('map.sitePeople', { shown: formatInteger(site.people) }) : '';
  return new LabelledIcon(
    { siteKey: key },
    {
      className: `site-marker ${tierClassOf(site.tier)}`,
      html: hidden(
        t('map.siteName', {
          name: site.name,
          kind: kindWord(site.kind),
          people,
          iso: site.iso,
          tier: tierWords(site.tier),
        }),
      ),
      iconSize: [SITE_SIZE, SITE_SIZE],
      iconAnchor: [SITE_SIZE / 2, SITE_SIZE / 2],
      tooltipAnchor: [SITE_SIZE / 2, 0],
    },
  );
}

/** A cluster: its number of sites on the colour of its most severe tier; size grows with count. */
export function clusterIcon(key: string, count: number, rank: number, people: number): DivIcon {
  const tier = rankTier(rank);
  const size = Math.round(Math.min(44, 24 + 5 * Math.log10(count)));
  const wrap = document.createElement('span');
  const shown = document.createElement('span');
  shown.setAttribute('aria-hidden', 'true');
  shown.textContent = count >= 1000 ? `${Math.round(count / 100) / 10}k` : String(count);
  wrap.append(
    shown,
    hidden(
      t('map.clusterName', {
        count,
        shown: formatInteger(count),
        people: formatInteger(people),
        tier: tierWords(tier),
      }),
    ),
  );
  return new LabelledIcon(
    { siteKey: key },
    {
      className: `site-cluster ${tierClassOf(tier)}`,
      html: wrap,
      iconSize: [size, size],
      iconAnchor: [size / 2, size / 2],
      tooltipAnchor: [size / 2, 0],
    },
  );
}
