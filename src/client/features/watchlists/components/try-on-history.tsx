import { MethodCaveat } from '../../../components/method-caveat';
import { useState } from 'react';
import type { AlertRule } from '../../../../shared/alerts-api';
import type { BacktestResponse } from '../../../../shared/backtest-api';
import { TableRegion } from '../../../components/data-table';
import { formatScore, formatUtcDateTime, na } from '../../../lib/format';
import { t } from '../../../lib/i18n';
import { displayName } from '../../../lib/display-name';
import { countryName } from '../../../lib/country-names';
import { useBacktest, type BacktestAsk } from '../api/backtest';
import { backtestProblem, chosenActiveThresholds, labelOfKey } from '../utils/backtest-words';

/** Alerts of the last 90 days listed under the table; the count says how many in all. */
const ALERTS_SHOWN = 20;

const nameOf = (iso: string): string => {
  const name = countryName(iso);
  return name ? displayName(iso, name) : iso;
};
const askKey = (ask: BacktestAsk): string => JSON.stringify(ask);

/**
 * "Try on history" while editing a list's rules: the form's countries and rules as they are now
 * (unsaved), run over every stored batch by the server's own alert code. Shows how often each
 * rule would have fired per country and when, what the last 90 days would have sent, and a
 * threshold suggested from each country's own volatility beside the one chosen.
 */
export function TryOnHistory({
  countries,
  rules,
  rulesValid,
}: {
  countries: readonly string[];
  rules: readonly AlertRule[];
  /** False while a rule on the form has a problem: the rules tried would not be the ones shown. */
  rulesValid: boolean;
}) {
  const backtest = useBacktest();
  const [unready, setUnready] = useState<string | null>(null);
  const current: BacktestAsk = { countries: [...countries], rules: [...rules] };
  const tried = backtest.variables;
  const changedSince = tried !== undefined && askKey(tried) !== askKey(current);

  const onTry = () => {
    if (countries.length === 0) return setUnready(t('watchlistRules.tryNeedsCountry'));
    if (!rulesValid) return setUnready(t('watchlistRules.tryFixRules'));
    if (rules.length === 0) return setUnready(t('watchlistRules.tryNeedsRule'));
    setUnready(null);
    backtest.mutate(current);
  };

  return (
    <section className="try-on-history" aria-labelledby="try-heading">
      <h3 id="try-heading">{t('watchlistRules.tryHeading')}</h3>
      <p className="muted">{t('watchlistRules.tryIntro')}</p>
      <button type="button" onClick={onTry} disabled={backtest.isPending}>
        {backtest.isPending ? t('watchlistRules.trying') : t('watchlistRules.tryHeading')}
      </button>
      <div aria-live="polite">
        {unready ? <p className="field-problem">{unready}</p> : null}
        {backtest.isError && !unready ? (
          <p role="alert" className="field-problem">
            {backtestProblem(backtest.error)}
          </p>
        ) : null}
        {backtest.data && tried && !backtest.isError && !unready ? (
          <>
            {changedSince ? <p className="note">{t('watchlistRules.changedSince')}</p> : null}
            <BacktestResult result={backtest.data} rules={tried.rules} />
          </>
        ) : null}
      </div>
    </section>
  );
}

function BacktestResult({
  result,
  rules,
}: {
  result: BacktestResponse;
  rules: readonly AlertRule[];
}) {
  if (result.batches === 0 || !result.from || !result.to) {
    return <p className="empty">{t('watchlistRules.noBatches')}</p>;
  }
  const chosen = chosenActiveThresholds(rules);
  return (
    <div className="backtest-result">
      <p>
        {t('watchlistRules.batches', {
          count: result.batches,
          from: formatUtcDateTime(result.from),
          to: formatUtcDateTime(result.to),
        })}
      </p>
      <MethodCaveat
        changes={result.method_changes ?? []}
        then={t('watchlistRules.methodThen', { held: heldWords(result.method_changes ?? []) })}
      />
      <BacktestTable result={result} rules={rules} chosen={chosen} />
      <p className="muted">{t('watchlistRules.suggestionNote')}</p>
      <RecentAlerts recent={result.last_90_days} rules={rules} />
    </div>
  );
}

/** "3 firings held" across the method changes a backtest crossed. */
function heldWords(changes: NonNullable<BacktestResponse['method_changes']>): string {
  const held = changes.reduce((sum, change) => sum + change.held_firings, 0);
  return t('watchlistRules.held', { count: held });
}

/**
 * Per country and rule. On a phone each country is a card of "rule: result" lines (CSS in
 * alerts.css, labels from `data-label`): the columns did not fit a 375 px screen, nor the form's
 * column at 1440 px (issue 33, point 7). The explicit roles keep it a table for screen readers
 * when the cards' `display: block` would drop the table semantics.
 */
function BacktestTable({
  result,
  rules,
  chosen,
}: {
  result: BacktestResponse;
  rules: readonly AlertRule[];
  chosen: string | null;
}) {
  const ruleLabels = result.rules.map((key) => ({ key, label: labelOfKey(key, rules) }));
  const suggested = t('watchlistRules.suggested');
  return (
    <TableRegion label={t('watchlistRules.tableLabel')} className="backtest-region">
      <table className="data-table backtest-table" role="table">
        <caption className="visually-hidden">{t('watchlistRules.tableCaption')}</caption>
        <thead role="rowgroup">
          <tr role="row">
            {[t('watchlistRules.country'), ...ruleLabels.map((r) => r.label), suggested].map(
              (label) => (
                <th key={label} scope="col" role="columnheader">
                  {label}
                </th>
              ),
            )}
          </tr>
        </thead>
        <tbody role="rowgroup">
          {result.countries.map((country) => (
            <tr key={country.iso} role="row">
              <th scope="row" role="rowheader">
                {nameOf(country.iso)}
                <span className="muted">
                  {t('watchlistRules.countryBatches', { count: country.batches })}
                </span>
              </th>
              {ruleLabels.map(({ key, label }) => {
                const fired = country.rules.find((r) => r.rule === key);
                return (
                  <td key={key} role="cell" data-label={label}>
                    {fired ? <Fired fired={fired} /> : <span className="muted">{na()}</span>}
                  </td>
                );
              })}
              <td role="cell" data-label={suggested}>
                {country.suggested_min_abs_delta === null
                  ? t('watchlistRules.tooLittle')
                  : t('watchlistRules.atLeast', {
                      value: formatScore(country.suggested_min_abs_delta, 1),
                    })}
                <span className="muted">
                  {chosen === null
                    ? t('watchlistRules.noneChosen')
                    : t('watchlistRules.chosen', { chosen })}
                </span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableRegion>
  );
}

function Fired({ fired }: { fired: BacktestResponse['countries'][number]['rules'][number] }) {
  const summary = t('watchlistRules.times', { count: fired.count, recent: fired.last_90_days });
  if (fired.count === 0) return <>{t('watchlistRules.never')}</>;
  const unlisted = fired.count - fired.batches.length;
  return (
    <details className="backtest-batches">
      <summary>{summary}</summary>
      <ul>
        {fired.batches.map((asOf) => (
          <li key={asOf}>
            <time dateTime={asOf}>{formatUtcDateTime(asOf)}</time>
          </li>
        ))}
      </ul>
      {unlisted > 0 ? (
        <p className="muted">{t('watchlistRules.earlier', { n: unlisted })}</p>
      ) : null}
    </details>
  );
}

function RecentAlerts({
  recent,
  rules,
}: {
  recent: BacktestResponse['last_90_days'];
  rules: readonly AlertRule[];
}) {
  const shown = recent.alerts.slice(0, ALERTS_SHOWN);
  return (
    <>
      <h4>{t('watchlistRules.recentHeading')}</h4>
      {recent.count === 0 ? (
        <p className="muted">{t('watchlistRules.recentNone')}</p>
      ) : (
        <>
          <p>
            {t('watchlistRules.recent', {
              count: recent.count,
              since: recent.since
                ? t('watchlistRules.recentSince', { date: formatUtcDateTime(recent.since) })
                : '',
              newest:
                recent.count > shown.length
                  ? t('watchlistRules.recentNewest', { shown: shown.length })
                  : t('watchlistRules.recentAll'),
            })}
          </p>
          <ul className="backtest-alerts">
            {shown.map((alert, index) => (
              <li key={`${alert.as_of}-${alert.iso}-${alert.rule}-${index}`}>
                <time dateTime={alert.as_of}>{formatUtcDateTime(alert.as_of)}</time> ·{' '}
                {nameOf(alert.iso)} · {labelOfKey(alert.rule, rules)}: {alert.message}
              </li>
            ))}
          </ul>
        </>
      )}
    </>
  );
}
