import { useQueries, useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { Link } from '../../lib/app-link';
import { PanelBoundary } from '../../components/panel-boundary';
import { QueryError } from '../../components/query-error';
import { Skeleton } from '../../components/skeleton';
import { ApiError } from '../../lib/api-client';
import { ComparePicker } from '../../features/compare/components/compare-picker';
import {
  CompareCategories,
  CompareKeyNumbers,
  CompareTrend,
} from '../../features/compare/components/compare-view';
import { compareHref, parseCompareParam } from '../../features/compare/utils/compare-param';
import type { ComparedCountry } from '../../features/compare/utils/compare-rows';
import { historyQueries } from '../../features/history/api/history-queries';
import { referenceQueries } from '../../features/reference/api/reference-queries';
import { displayName } from '../../lib/display-name';
import { t } from '../../lib/i18n';
import { pageTitle } from '../../lib/page-title';
import { useRiskIndex } from '../../lib/risk-index';
import { RiskIndexSwitch, teamNameOf } from '../../components/risk-index-switch';

/**
 * The compared countries' histories, sorted into what can be shown, what is only a note (a code
 * nobody knows, a country with no recorded history) and what failed (with its retry).
 */
function useComparison(isos: readonly string[], problems: readonly string[]) {
  const reference = useQuery(referenceQueries.countries());
  const known = reference.data ? new Set(reference.data.data.countries.map((c) => c.iso)) : null;
  const [index] = useRiskIndex();
  const histories = useQueries({
    queries: isos.map((iso) => historyQueries.country(iso, index)),
  });

  const compared: ComparedCountry[] = [];
  const notes = [...problems];
  const failures: { iso: string; error: Error; retry: () => void }[] = [];
  isos.forEach((iso, i) => {
    const query = histories[i];
    const refName = reference.data?.data.countries.find((c) => c.iso === iso)?.name;
    if (query?.data) {
      compared.push({
        iso,
        name: displayName(iso, refName ?? query.data.data.name ?? iso),
        points: query.data.data.points,
        methodChanges: query.data.data.method_changes ?? [],
      });
    } else if (query?.error instanceof ApiError && query.error.status === 404) {
      notes.push(
        known && !known.has(iso)
          ? t('compare.unknownCode', { iso })
          : t('compare.noHistory', { name: refName ? displayName(iso, refName) : iso, iso }),
      );
    } else if (query?.error) {
      failures.push({ iso, error: query.error, retry: () => void query.refetch() });
    }
  });
  const pending = histories.some((q) => q.isPending);
  const teamName = teamNameOf(histories.find((q) => q.data)?.data?.data);
  return { reference, compared, notes, failures, pending, teamName };
}

/** The countries in the comparison, each with its way out, and the picker to add one. */
function ComparedChips({
  isos,
  compared,
  reference,
}: {
  isos: readonly string[];
  compared: readonly ComparedCountry[];
  reference: ReturnType<typeof useComparison>['reference'];
}) {
  return (
    <div className="compare-chosen">
      {isos.length > 0 ? (
        <ul className="chips" aria-label={t('compare.compared')}>
          {isos.map((iso) => (
            <li key={iso}>
              {compared.find((c) => c.iso === iso)?.name ?? iso}{' '}
              <Link
                to={compareHref(isos.filter((other) => other !== iso))}
                aria-label={t('compare.remove', { iso })}
              >
                ×
              </Link>
            </li>
          ))}
        </ul>
      ) : null}
      <ComparePicker
        current={isos}
        reference={reference.data?.data.countries}
        label={t('compare.add')}
      />
    </div>
  );
}

/**
 * `/compare?iso=MLI,NER,BFA`: 2 to 6 countries' recorded histories side by side. The URL is the
 * whole state; bad or unknown codes are named in plain words and the rest is still compared.
 */
export function CompareRoute() {
  const [params] = useSearchParams();
  const { isos, problems } = parseCompareParam(params.get('iso'));
  const { reference, compared, notes, failures, pending, teamName } = useComparison(isos, problems);
  const title =
    compared.length > 0
      ? t('compare.titleOf', { isos: compared.map((c) => c.iso).join(', ') })
      : t('compare.title');

  return (
    <div className="compare-page">
      <title>{pageTitle(title)}</title>
      <p className="back-link">
        <Link to="/">{t('country.back')}</Link>
      </p>
      <h1>{t('compare.heading')}</h1>
      <RiskIndexSwitch teamName={teamName} />
      {notes.length > 0 ? (
        <div className="compare-notes" role="status" aria-label={t('compare.about')}>
          {notes.map((note) => (
            <p key={note}>{note}</p>
          ))}
        </div>
      ) : null}
      <ComparedChips isos={isos} compared={compared} reference={reference} />
      {failures.map((failure) => (
        <QueryError
          key={failure.iso}
          what={t('countryTrend.error', { iso: failure.iso })}
          error={failure.error}
          onRetry={failure.retry}
        />
      ))}
      {pending ? (
        <Skeleton label={t('compare.loading')} lines={6} />
      ) : compared.length === 0 ? null : (
        <>
          <PanelBoundary name={t('compare.trendsPanel')}>
            <CompareTrend countries={compared} />
          </PanelBoundary>
          <div className="compare-panels">
            <PanelBoundary name={t('compare.numbersPanel')}>
              <CompareKeyNumbers countries={compared} />
            </PanelBoundary>
            <PanelBoundary name={t('compare.categoriesPanel')}>
              <CompareCategories countries={compared} />
            </PanelBoundary>
          </div>
        </>
      )}
    </div>
  );
}
