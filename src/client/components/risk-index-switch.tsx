import { useRiskIndex } from '../lib/risk-index';
import { t } from '../lib/i18n';

/** The team index's name as a team-view answer states it (`index.name`), else null. */
export function teamNameOf(answer: unknown): string | null {
  const index = (answer as { index?: { kind?: unknown; name?: unknown } } | undefined)?.index;
  return index?.kind === 'team' && typeof index.name === 'string' ? index.name : null;
}

/** The team index's weights as a team-view answer states them (`index.weights`), else null. */
export function teamWeightsOf(answer: unknown): Readonly<Record<string, number>> | null {
  const index = (answer as { index?: { kind?: unknown; weights?: unknown } } | undefined)?.index;
  return index?.kind === 'team' && typeof index.weights === 'object' && index.weights !== null
    ? (index.weights as Record<string, number>)
    : null;
}

/**
 * Provider risk ↔ team index (issue 31), where risk is shown: the choice is in the URL, and the
 * provider's figure is always one click away under its own label. It asks nothing itself: the
 * team view's answer names the weights (and says in words when none are set yet).
 */
export function RiskIndexSwitch({ teamName }: { teamName: string | null }) {
  const [index, setIndex] = useRiskIndex();
  return (
    <div className="segmented risk-index-switch" role="group" aria-label={t('table.riskShown')}>
      <button
        type="button"
        aria-pressed={index === 'provider'}
        onClick={() => setIndex('provider')}
      >
        {t('table.providerRisk')}
      </button>
      <button type="button" aria-pressed={index === 'team'} onClick={() => setIndex('team')}>
        {teamName ? t('table.teamIndexNamed', { name: teamName }) : t('table.teamIndex')}
      </button>
    </div>
  );
}
