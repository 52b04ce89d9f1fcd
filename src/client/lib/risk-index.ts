import { useSearchParams } from 'react-router';
import type { RiskIndex } from '../../shared/team-index-api';

/** Which figure risk views show (`?index=team`, issue 31): the provider's unless the URL says. */
export function parseRiskIndex(raw: string | null): RiskIndex {
  return raw === 'team' ? 'team' : 'provider';
}

/** A BFF path asking for the team view when `index` is `team`; the provider's path as it was. */
export function withRiskIndex(path: string, index: RiskIndex): string {
  if (index === 'provider') return path;
  return `${path}${path.includes('?') ? '&' : '?'}index=team`;
}

/** The figure the page shows, and a setter that keeps it in the URL (a shared link shows it). */
export function useRiskIndex(): [RiskIndex, (next: RiskIndex) => void] {
  const [params, setParams] = useSearchParams();
  const index = parseRiskIndex(params.get('index'));
  const setIndex = (next: RiskIndex) =>
    setParams(
      (current) => {
        const updated = new URLSearchParams(current);
        if (next === 'team') updated.set('index', 'team');
        else updated.delete('index');
        return updated;
      },
      { replace: true, preventScrollReset: true },
    );
  return [index, setIndex];
}
