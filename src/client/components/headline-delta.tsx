import { headlineChange } from '../../shared/headline-change';
import { formatSigned } from '../lib/format';
import { Delta } from './delta';
import { t } from '../lib/i18n';

/**
 * The provider's `delta_headline` as a plain figure under its own name: no arrow, no colour, no
 * "up" or "down", so it never reads as the direction when ours says otherwise (issue 33).
 */
function ProviderFigure({ value, disagrees }: { value: number; disagrees: boolean }) {
  return (
    <span className="provider-delta" data-testid="provider-delta">
      {t(disagrees ? 'delta.providerFigureDiffers' : 'delta.providerFigure', {
        value: formatSigned(value),
      })}
    </span>
  );
}

/**
 * A country's headline change of risk (shared/headline-change.ts): ours when both batches are
 * recorded here, else the provider's, each saying which it is. `verbose` spells it out (the
 * country header) with the provider's figure beside ours; a table cell shows one number.
 */
export function HeadlineDelta({
  provider,
  recorded,
  verbose = false,
}: {
  provider: number | null | undefined;
  recorded: number | null | undefined;
  verbose?: boolean;
}) {
  const change = headlineChange(provider, recorded);
  if (!verbose) {
    // A star, not words: a phone's table has no room for "(provider)" in every row. It comes
    // first and takes no width (it sits in the gap before the figure, so the table keeps its
    // width); the note under the table says what it means, and a screen reader hears words.
    return (
      <>
        {change.source === 'provider' ? (
          <span className="delta-source" title={t('overview.providerStarTitle')}>
            <span aria-hidden="true">*</span>
            <span className="visually-hidden">{t('overview.providerStar')}</span>
          </span>
        ) : null}
        <Delta value={change.value} />
      </>
    );
  }
  if (change.source !== 'recorded') {
    return change.provider === null ? (
      <Delta value={null} />
    ) : (
      <Delta value={change.provider} verbose suffix={t('delta.inRiskProvider')} />
    );
  }
  return (
    <>
      <Delta value={change.value} verbose suffix={t('delta.inRiskRecorded')} />
      {change.provider !== null ? (
        <>
          <span aria-hidden="true"> · </span>
          <span className="visually-hidden">, </span>
          <ProviderFigure value={change.provider} disagrees={change.disagrees} />
        </>
      ) : null}
    </>
  );
}
