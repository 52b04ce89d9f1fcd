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
          ? `${iso} is not a known ISO country code.`
          : `No history is recorded for ${refName ?? iso} (${iso}).`,
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
        <ul className="chips" aria-label="Compared countries">
          {isos.map((iso) => (
            <li key={iso}>
              {compared.find((c) => c.iso === iso)?.name ?? iso}{' '}
              <Link
                to={compareHref(isos.filter((other) => other !== iso))}
                aria-label={`Remove ${iso} from the comparison`}
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
        label="Add a country"
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
    compared.length > 0 ? `Compare ${compared.map((c) => c.iso).join(', ')}` : 'Compare';

  return (
    <div className="compare-page">
      <title>{`${title} · Global Risk Dashboard`}</title>
      <p className="back-link">
        <Link to="/">← Back to the overview</Link>
      </p>
      <h1>Compare countries</h1>
      <RiskIndexSwitch teamName={teamName} />
      {notes.length > 0 ? (
        <div className="compare-notes" role="status" aria-label="About this comparison">
          {notes.map((note) => (
            <p key={note}>{note}</p>
          ))}
        </div>
      ) : null}
      <ComparedChips isos={isos} compared={compared} reference={reference} />
      {failures.map((failure) => (
        <QueryError
          key={failure.iso}
          what={`The history of ${failure.iso}`}
          error={failure.error}
          onRetry={failure.retry}
        />
      ))}
      {pending ? (
        <Skeleton label="Loading the histories" lines={6} />
      ) : compared.length === 0 ? null : (
        <>
          <PanelBoundary name="The compared trends">
            <CompareTrend countries={compared} />
          </PanelBoundary>
          <div className="compare-panels">
            <PanelBoundary name="The key numbers">
              <CompareKeyNumbers countries={compared} />
            </PanelBoundary>
            <PanelBoundary name="The categories">
              <CompareCategories countries={compared} />
            </PanelBoundary>
          </div>
        </>
      )}
    </div>
  );
}
