import { useQueries, useQuery } from '@tanstack/react-query';
import { useLocation } from 'react-router';
import type { ReactNode } from 'react';
import { Link } from '../../../lib/app-link';
import { useTierOrder } from '../../../lib/tier-scale';
import { Delta } from '../../../components/delta';
import { Sparkline } from '../../../components/sparkline';
import { TierBadge } from '../../../components/tier-badge';
import { Skeleton } from '../../../components/skeleton';
import { PrintedPages } from '../../../components/printed-pages';
import {
  formatInteger,
  formatScore,
  formatSigned,
  formatUtcDateTime,
  humanise,
} from '../../../lib/format';
import { BRIEF_DAYS, briefQueries, periodStart, upToBatch } from '../api/brief-queries';
import { useAsOf } from '../../../lib/as-of';
import { useRiskIndex } from '../../../lib/risk-index';
import { RiskIndexSwitch, teamNameOf } from '../../../components/risk-index-switch';
import { teamRowExtras, type RiskIndex } from '../../../../shared/team-index-api';
import { TableHead } from '../../../components/data-table';
import { displayName } from '../../../lib/display-name';
import { bffQueries } from '../../../lib/bff-queries';
import { heldChanges } from '../../../lib/method-caveat';
import { MethodCaveat } from '../../../components/method-caveat';
import { BriefMethod, BriefMethodCaveat } from './brief-method';
import { BriefNotes } from './brief-notes';
import { t } from '../../../lib/i18n';
import { pageTitle } from '../../../lib/page-title';

const day = (iso: string): string => iso.slice(0, 10);

/** "Team index “Logistics view”": the figure's label in the team view. */
function teamIndexLabel(answer: unknown): string {
  const name = teamNameOf(answer);
  return name ? t('overview.teamIndexNamed', { team: name }) : t('table.teamIndex');
}

function GlobalBlock() {
  const global = useQuery(briefQueries.global());
  const asOf = useAsOf();
  const movers = useQuery(briefQueries.movers(asOf));
  const all = upToBatch(global.data?.data.points ?? [], asOf);
  const latest = all[all.length - 1];
  const start = periodStart(latest?.as_of);
  const points = all.filter((p) => Date.parse(p.as_of) >= start);
  const order = useTierOrder(Object.keys(latest?.tier_counts ?? {}));
  const counts = Object.entries(latest?.tier_counts ?? {}).sort(([a], [b]) => order(a, b));
  const top = [...(movers.data?.data.countries ?? [])]
    .filter((c) => c.delta_risk !== null)
    .sort((a, b) => Math.abs(b.delta_risk ?? 0) - Math.abs(a.delta_risk ?? 0))
    .slice(0, 5);
  return (
    <section className="brief-block" aria-labelledby="brief-global">
      <h2 id="brief-global">{t('brief.world')}</h2>
      {global.isError ? <p role="alert">{global.error.message}</p> : null}
      <div className="brief-global">
        <p className="brief-index">
          {t('trend.globalIndex')} <strong>{formatScore(latest?.index ?? null)}</strong>
          {latest?.tier ? <TierBadge tier={latest.tier} /> : null}
        </p>
        <Sparkline
          values={points.map((p) => p.index)}
          label={t('brief.globalOverDays', { days: BRIEF_DAYS })}
          width={240}
          height={48}
          scale
        />
      </div>
      {counts.length > 0 ? (
        <ul className="brief-tiers" aria-label={t('brief.perTier')}>
          {counts.map(([tier, n]) => (
            <li key={tier}>
              <TierBadge tier={tier} /> {formatInteger(n)}
            </li>
          ))}
        </ul>
      ) : null}
      <h3>{t('brief.topMovers')}</h3>
      <MethodCaveat
        changes={heldChanges(movers.data?.data.method_changes)}
        then={t('brief.movesAcross')}
      />
      {top.length === 0 ? (
        <p className="empty">{t('brief.noComparison')}</p>
      ) : (
        <table className="data-table brief-movers">
          <TableHead
            columns={[
              { label: t('table.country') },
              { label: t('table.risk'), className: 'num' },
              { label: t('table.deltaRisk'), className: 'num' },
              { label: t('table.deltaActive'), className: 'num' },
            ]}
          />
          <tbody>
            {top.map((c) => (
              <tr key={c.iso}>
                <th scope="row">
                  {c.name ? displayName(c.iso, c.name) : c.iso} <span className="iso">{c.iso}</span>
                </th>
                <td className="num">{formatScore(c.now.risk)}</td>
                <td className="num">
                  <Delta value={c.delta_risk} />
                </td>
                <td className="num">
                  <Delta value={c.delta_active} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function CountryBlock({ iso }: { iso: string }) {
  const asOf = useAsOf();
  const [index] = useRiskIndex();
  const detail = useQuery(briefQueries.country(iso, asOf, index));
  const trend = useQuery(briefQueries.trend(iso, index));
  const series = upToBatch(trend.data?.data.points ?? [], asOf);
  const start = periodStart(series[series.length - 1]?.as_of);
  const period = series.filter((p) => Date.parse(p.as_of) >= start);
  const alerts = useQuery(briefQueries.alerts(iso));
  const country = detail.data?.data.country;
  const categories = Object.entries(country?.categories ?? {})
    .filter(([, c]) => typeof c.score === 'number')
    .sort(([, a], [, b]) => (b.score ?? 0) - (a.score ?? 0))
    .slice(0, 3);
  const events = [...(country?.events ?? [])].sort((a, b) => b.ts.localeCompare(a.ts)).slice(0, 3);
  const periodAlerts = (alerts.data?.data.alerts ?? []).filter(
    (a) => Date.parse(a.batch_as_of) >= start,
  );
  return (
    <section className="brief-block brief-country" aria-labelledby={`brief-${iso}`}>
      <h2 id={`brief-${iso}`}>
        <Link to={`/country/${iso}`}>{country?.name ? displayName(iso, country.name) : iso}</Link>{' '}
        <span className="iso">{iso}</span> {country ? <TierBadge tier={country.tier} /> : null}
      </h2>
      {detail.isError ? <p role="alert">{detail.error.message}</p> : null}
      <dl className="brief-numbers">
        <div>
          <dt>{index === 'team' ? teamIndexLabel(detail.data?.data) : t('table.risk')}</dt>
          <dd>{formatScore(country?.risk)}</dd>
        </div>
        <BriefTeamNumbers country={country} />
        <div>
          <dt>{t('table.static')}</dt>
          <dd>{formatScore(country?.static)}</dd>
        </div>
        <div>
          <dt>{t('table.active')}</dt>
          <dd>
            {formatScore(country?.active)} ({formatSigned(country?.delta_active)})
          </dd>
        </div>
        <div>
          <dt>{t('brief.trendDays', { days: BRIEF_DAYS })}</dt>
          <dd>
            <Sparkline
              values={period.map((p) => p.risk)}
              label={t('brief.riskOverDays', { iso, days: BRIEF_DAYS })}
              width={160}
              height={32}
              scale
            />
          </dd>
        </div>
      </dl>
      <BriefColumns categories={categories} events={events} alerts={periodAlerts}>
        <BriefNotes iso={iso} asOf={asOf} />
      </BriefColumns>
    </section>
  );
}

/** A country block's columns: its top categories, latest events and the period's alerts. */
function BriefColumns({
  categories,
  events,
  alerts,
  children,
}: {
  categories: [string, { score?: number | null }][];
  events: { ts: string; headline: string; source_name?: string | null; source?: string | null }[];
  alerts: { id: number | string; batch_as_of: string; message: string }[];
  /** Columns placed after the events (the country's notes). */
  children?: ReactNode;
}) {
  return (
    <div className="brief-columns">
      <div>
        <h3>{t('brief.topCategories')}</h3>
        <ol>
          {categories.map(([name, c]) => (
            <li key={name}>
              {/* The upstream's category names, as they came (issue 34). */}
              <span translate="no">{humanise(name)}</span>: {formatScore(c.score)}
            </li>
          ))}
        </ol>
      </div>
      <div>
        <h3>{t('brief.latestEvents')}</h3>
        {events.length === 0 ? (
          <p className="empty">{t('brief.noneReported')}</p>
        ) : (
          <ul>
            {events.map((e) => (
              <li key={`${e.ts}-${e.headline}`}>
                {day(e.ts)}: <span translate="no">{e.headline}</span>
                {(e.source_name ?? e.source) ? (
                  <span translate="no"> ({e.source_name ?? e.source})</span>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </div>
      {children}
      <div>
        <h3>{t('brief.periodAlerts')}</h3>
        {alerts.length === 0 ? (
          <p className="empty">{t('brief.none')}</p>
        ) : (
          <ul>
            {alerts.map((a) => (
              <li key={a.id}>
                {/* The alert's text as the server stored it when it fired. */}
                {day(a.batch_as_of)}: <span translate="no">{a.message}</span>
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}

/**
 * In the team view (issue 31), the provider's own figure beside the team index, labelled, and
 * our override with its reason and end: a printed brief never shows ours instead of theirs
 * without saying so.
 */
function BriefTeamNumbers({ country }: { country: unknown }) {
  const extras = teamRowExtras(country);
  if (!extras) return null;
  return (
    <>
      <div>
        <dt>{t('table.providerRisk')}</dt>
        <dd>
          {formatScore(extras.provider.risk)} <TierBadge tier={extras.provider.tier} />
        </dd>
      </div>
      {extras.override ? (
        <div className="brief-override">
          <dt>{t('brief.ourOverride')}</dt>
          <dd>
            <TierBadge tier={extras.override.tier} />{' '}
            {t('brief.quoted', { text: extras.override.reason })}
            {t('brief.until', { date: formatUtcDateTime(extras.override.expires) })}
          </dd>
        </div>
      ) : null}
    </>
  );
}

/** Every query the brief's blocks read, so the page can wait for all of them at once. */
function briefLoads(isos: readonly string[], asOf: string | null, index: RiskIndex) {
  return [
    briefQueries.global(),
    briefQueries.movers(asOf),
    ...isos.flatMap((iso) => [
      briefQueries.country(iso, asOf, index),
      briefQueries.trend(iso, index),
      briefQueries.alerts(iso),
      bffQueries.notes(iso, asOf),
    ]),
  ];
}

/**
 * The batch the brief's numbers are of, cited: its id (GET /api/batches/:id gives its content)
 * and a link that opens exactly that batch (`?as_of=` its time), on screen and in print, so a
 * brief printed today and read in a year still points at the numbers it shows.
 */
function BatchCitation() {
  const movers = useQuery(briefQueries.movers(useAsOf()));
  const { pathname, search } = useLocation();
  const batch = movers.data?.data.to_batch;
  if (!batch) return null;
  const params = new URLSearchParams(search);
  params.set('as_of', batch.as_of);
  const href = `${window.location.origin}${pathname}?${params.toString()}`;
  return (
    <p className="brief-citation">
      {t('brief.batchId')}{' '}
      {batch.id ? <code translate="no">{batch.id}</code> : <code>{t('brief.notGivenYet')}</code>}
      <BriefMethod asOf={batch.as_of} /> · {t('brief.asOfThisBatch')}{' '}
      <a href={href} translate="no">
        {href}
      </a>
    </p>
  );
}

/**
 * A print-ready brief: the world, then one block per country. Drawn once every block's data is
 * in (or failed): blocks filling in one by one moved the ones below (layout shift 0.12).
 */
export function BriefPage({
  title,
  isos,
  ownTitle = false,
}: {
  title: string;
  isos: readonly string[];
  /** The title is the team's own words (a watchlist's name): kept as typed. */
  ownTitle?: boolean;
}) {
  const shown = useAsOf();
  const [index] = useRiskIndex();
  const blocksLoading = useQueries({
    queries: briefLoads(isos, shown, index),
    combine: (results) => results.some((result) => result.isPending),
  });
  // The citation names the batch's method (BriefMethod): waited for with the rest, or the line
  // would grow when it came and move everything below it (a layout shift at 375 px).
  const batchTime = useQuery(briefQueries.movers(shown)).data?.data.to_batch?.as_of;
  const method = useQuery({ ...bffQueries.batchAt(batchTime ?? ''), enabled: !!batchTime });
  const loading = blocksLoading || (!!batchTime && method.isPending);
  const global = useQuery(briefQueries.global());
  // The data's own time, on screen and on every printed page: never the time it was printed
  // (the batch the brief is as of, when it is of a past one).
  const asOf = upToBatch(global.data?.data.points ?? [], shown).at(-1)?.as_of;
  return (
    <article className="brief">
      <title>{pageTitle(title, t('brief.heading'))}</title>
      <header className="brief-head">
        <h1 translate={ownTitle ? 'no' : undefined}>{title}</h1>
        <div className="no-print">
          <RiskIndexSwitch teamName={null} />
        </div>
        {/* With the blocks: a line that grew as the batch time came moved what is below it. */}
        {loading ? null : (
          <>
            <p>
              {asOf
                ? t('problems.dataOfBatch', { date: formatUtcDateTime(asOf) })
                : t('exposurePage.noRecordedBatch')}{' '}
              · {t('brief.countries', { count: isos.length })} ·{' '}
              {t('brief.periodOf', { days: BRIEF_DAYS })}
            </p>
            <BatchCitation />
            <BriefMethodCaveat
              changes={global.data?.data.method_changes}
              start={asOf ? new Date(periodStart(asOf)).toISOString() : undefined}
              end={asOf}
            />
            <button type="button" className="no-print print-button" onClick={() => window.print()}>
              {t('brief.print')}
            </button>
          </>
        )}
      </header>
      <PrintedPages asOf={asOf} />
      {loading ? (
        <Skeleton label={t('brief.loading')} lines={8} />
      ) : (
        <>
          <GlobalBlock />
          {isos.map((iso) => (
            <CountryBlock key={iso} iso={iso} />
          ))}
        </>
      )}
    </article>
  );
}
