import type { CountryChange } from './history-api.js';

/** How many countries each list of the panel names. */
export const LIST_LENGTH = 5;
/** Changes that round to 0.00 are not movement. */
const MOVED = 0.005;

type DeltaKey = 'delta_risk' | 'delta_active';

function movers(changes: readonly CountryChange[], key: DeltaKey, sign: 1 | -1) {
  return changes
    .filter((c) => typeof c[key] === 'number' && sign * (c[key] as number) >= MOVED)
    .sort((a, b) => sign * ((b[key] as number) - (a[key] as number)))
    .slice(0, LIST_LENGTH);
}

export interface ChangeLists {
  riskRisers: CountryChange[];
  riskFallers: CountryChange[];
  activeRisers: CountryChange[];
  activeFallers: CountryChange[];
  tierUp: CountryChange[];
  tierDown: CountryChange[];
}

/** The panel's lists: biggest moves first; tier changes ordered by the size of the risk move. */
export function changeLists(changes: readonly CountryChange[]): ChangeLists {
  const byRiskMove = (a: CountryChange, b: CountryChange) =>
    Math.abs(b.delta_risk ?? 0) - Math.abs(a.delta_risk ?? 0);
  return {
    riskRisers: movers(changes, 'delta_risk', 1),
    riskFallers: movers(changes, 'delta_risk', -1),
    activeRisers: movers(changes, 'delta_active', 1),
    activeFallers: movers(changes, 'delta_active', -1),
    tierUp: changes.filter((c) => c.tier_change === 'up').sort(byRiskMove),
    tierDown: changes.filter((c) => c.tier_change === 'down').sort(byRiskMove),
  };
}
