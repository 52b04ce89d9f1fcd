import { useMemo } from 'react';
import { Link } from '../../../lib/app-link';
import { TrendFrame } from '../../../components/trend-frame';
import { TierBadge } from '../../../components/tier-badge';
import { fileStem, type SeriesColumn } from '../../../lib/csv';
import {
  formatInteger,
  formatScore,
  formatSigned,
  formatUtcDateTime,
  humanise,
} from '../../../lib/format';
import { MethodCaveat } from '../../../components/method-caveat';
import { heldChangesBetween, newMethodSince } from '../../../lib/method-caveat';
import {
  changeBase,
  COMPARE_STYLES,
  latestCategories,
  latestPoint,
  riskTable,
  type ComparedCountry,
} from '../utils/compare-rows';
import { TableHead, TableRegion } from '../../../components/data-table';
import { useComparedAsOf } from '../hooks/use-compared-as-of';
import { t } from '../../../lib/i18n';

/** Overlaid risk trends of the compared countries, over the tier bands (up to `?as_of=`). */
export function CompareTrend({ countries: recorded }: { countries: readonly ComparedCountry[] }) {
  const countries = useComparedAsOf(recorded);
  const tableRows = useMemo(() => riskTable(countries), [countries]);
  const rows = useMemo(
    () =>
      tableRows.map(({ as_of: asOf, ...values }) => ({
        t: Date.parse(String(asOf)),
        ...(values as Record<string, number | null>),
      })),
    [tableRows],
  );
  const columns: SeriesColumn[] = [
    { key: 'as_of', label: t('chart.batchUtc'), kind: 'time' },
    ...countries.map((c) => ({
      key: c.iso,
      label: t('compare.riskOf', { name: c.name }),
      kind: 'score' as const,
    })),
  ];
  const series = countries.map((c, i) => ({
    key: c.iso,
    label: c.name,
    colour: COMPARE_STYLES[i % COMPARE_STYLES.length]?.colour ?? '#0072b2',
    dash: COMPARE_STYLES[i % COMPARE_STYLES.length]?.dash,
  }));
  return (
    <section className="panel" aria-labelledby="compare-trend-heading">
      <div className="panel-head">
        <h2 id="compare-trend-heading">{t('compare.riskOverTime')}</h2>
      </div>
      {rows.length === 0 ? (
        <p className="empty">{t('compare.noHistoryYet')}</p>
      ) : (
        <TrendFrame
          label={t('compare.riskOverTime')}
          viewParam="view"
          columns={columns}
          rows={tableRows}
          filename={fileStem('compare', ...countries.map((c) => c.iso))}
          drawing={t('compare.drawing')}
          chartRows={rows}
          series={series}
          bands
          height={300}
          methodChanges={countries[0]?.methodChanges}
        />
      )}
    </section>
  );
}

/** The latest category scores side by side (as of `?as_of=`); the highest of each row is marked. */
export function CompareCategories({
  countries: recorded,
}: {
  countries: readonly ComparedCountry[];
}) {
  const countries = useComparedAsOf(recorded);
  const names = useMemo(() => latestCategories(countries), [countries]);
  const latest = countries.map((c) => latestPoint(c)?.categories ?? null);
  return (
    <section className="panel" aria-labelledby="compare-categories-heading">
      <div className="panel-head">
        <h2 id="compare-categories-heading">{t('compare.categoriesHeading')}</h2>
        <p className="panel-sub">{t('compare.categoriesSub')}</p>
      </div>
      {names.length === 0 ? (
        <p className="empty">{t('compare.noCategories')}</p>
      ) : (
        <TableRegion label={t('compare.categoriesTable')}>
          <table className="data-table">
            <TableHead
              columns={[
                { label: t('why.category') },
                ...countries.map((c) => ({ label: c.name, className: 'num' })),
              ]}
            />
            <tbody>
              {names.map((name) => {
                const scores = latest.map((cats) => cats?.[name]?.score ?? null);
                const top = Math.max(...scores.map((s) => s ?? -Infinity));
                return (
                  <tr key={name}>
                    {/* The upstream's category names, as they came (issue 34). */}
                    <th scope="row" translate="no">
                      {humanise(name)}
                    </th>
                    {scores.map((score, i) => (
                      <td
                        key={countries[i]?.iso ?? i}
                        className={`num${score !== null && score === top ? ' strong' : ''}`}
                      >
                        {formatScore(score, 1)}
                      </td>
                    ))}
                  </tr>
                );
              })}
            </tbody>
          </table>
        </TableRegion>
      )}
    </section>
  );
}

/** Key numbers of each compared country, from its latest recorded batch (as of `?as_of=`). */
export function CompareKeyNumbers({
  countries: recorded,
}: {
  countries: readonly ComparedCountry[];
}) {
  const countries = useComparedAsOf(recorded);
  // Every history answer carries the same changes; the span is the widest of the countries'.
  const changes = countries[0]?.methodChanges ?? [];
  const firstAt = countries.map((c) => c.points[0]?.as_of).sort()[0];
  const lastAt = countries
    .map((c) => c.points.at(-1)?.as_of ?? '')
    .sort()
    .at(-1);
  const crossed = heldChangesBetween(changes, firstAt, lastAt);
  return (
    <section className="panel" aria-labelledby="compare-numbers-heading">
      <div className="panel-head">
        <h2 id="compare-numbers-heading">{t('compare.numbersHeading')}</h2>
      </div>
      <TableRegion label={t('compare.numbersTable')}>
        <table className="data-table">
          <TableHead
            columns={[
              { label: t('table.country') },
              { label: t('table.risk'), className: 'num' },
              { label: t('table.tier') },
              { label: t('table.static'), className: 'num' },
              { label: t('table.active'), className: 'num' },
              { label: t('compare.deltaSinceFirst'), className: 'num' },
              { label: t('table.confidence'), className: 'num' },
              { label: t('compare.latestBatch') },
            ]}
          />
          <tbody>
            {countries.map((country) => {
              const last = latestPoint(country);
              const first = changeBase(country.points, newMethodSince(changes, last?.as_of));
              const change =
                last && first && typeof last.risk === 'number' && typeof first.risk === 'number'
                  ? last.risk - first.risk
                  : null;
              return (
                <tr key={country.iso}>
                  <th scope="row" className="country-cell">
                    <Link to={`/country/${encodeURIComponent(country.iso)}`}>{country.name}</Link>{' '}
                    <span className="iso">{country.iso}</span>
                  </th>
                  <td className="num strong">{formatScore(last?.risk)}</td>
                  <td>
                    <TierBadge tier={last?.tier} />
                  </td>
                  <td className="num">{formatScore(last?.static)}</td>
                  <td className="num">{formatScore(last?.active)}</td>
                  <td className="num">
                    {formatSigned(change)}
                    {first ? (
                      <span className="muted delta-since">
                        {t('compare.since', { date: formatUtcDateTime(first.as_of) })}
                      </span>
                    ) : null}
                  </td>
                  <td className="num">{formatInteger(last?.confidence)}</td>
                  <td>{formatUtcDateTime(last?.as_of)}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
        <p className="table-note">{t('compare.deltaNote')}</p>
        <MethodCaveat changes={crossed} then={t('compare.withinNewMethod')} />
      </TableRegion>
    </section>
  );
}
