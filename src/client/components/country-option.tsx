import { formatScore } from '../lib/format';
import type { SearchHit } from '../lib/country-match';
import { TierBadge } from './tier-badge';
import { displayName } from '../lib/display-name';

/** Each country's tier and risk in the latest batch, by ISO code; null while unknown. */
export type CountryFigures = ReadonlyMap<
  string,
  { tier?: string | null | undefined; risk?: number | null | undefined }
>;

/**
 * What a search result says of its country (the palette and the country picker): name and code,
 * then its tier and risk in the latest batch, the common name it matched by and its region.
 */
export function CountryOptionText({
  hit,
  figures,
}: {
  hit: SearchHit;
  figures: CountryFigures | null;
}) {
  const { country } = hit;
  const numbers = figures?.get(country.iso);
  return (
    <>
      <span className="palette-name">
        {displayName(country.iso, country.name)} <span className="iso">{country.iso}</span>
      </span>
      <span className="palette-meta">
        {numbers ? (
          <span className="palette-figures">
            <TierBadge tier={numbers.tier} /> risk {formatScore(numbers.risk, 1)}
          </span>
        ) : figures !== null ? (
          <span className="palette-figures">not in the current data</span>
        ) : null}
        <span>
          {hit.via ? `matches “${hit.via}” · ` : ''}
          {country.subregion ?? country.region ?? ''}
        </span>
      </span>
    </>
  );
}
