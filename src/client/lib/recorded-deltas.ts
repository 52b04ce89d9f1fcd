import { useQuery } from '@tanstack/react-query';
import { useCallback, useDeferredValue } from 'react';
import type { ChangesResponse } from '../../shared/history-api';
import type { Fetched } from './api-client';
import { useAsOf } from './as-of';
import { bffQueries } from './bff-queries';
import { heldChanges } from './method-caveat';
import { useRiskIndex } from './risk-index';
import { t } from './i18n';

/** The same instant, whatever the spelling (`…00Z` and `…00.000Z`). */
export function sameBatch(a: string | null | undefined, b: string | null | undefined): boolean {
  return !!a && !!b && Date.parse(a) === Date.parse(b);
}

/**
 * Each country's risk change between the batch shown and the batch recorded before it, by ISO
 * code (issue 33, point 1): the headline change wherever both batches are recorded here. Read
 * from What changed's own query (`/api/changes?since=previous`, one cache entry), and used only
 * when its newer batch is the very batch the rows come from (`dataAsOf`); null otherwise (not
 * recorded yet, no history store), and the provider's own figure is shown under its name.
 */
export function useRecordedRiskDeltas(
  dataAsOf: string | null | undefined,
): ReadonlyMap<string, number> | null {
  const asOf = useAsOf();
  // In the team view (issue 31) the moves are the team index's (What changed with index=team);
  // while the BFF is still computing them there are none, never the provider's under our name.
  const [index] = useRiskIndex();
  const select = useCallback(
    ({ data }: Fetched<ChangesResponse>) =>
      // Across a method change the difference is two methods' scores, not a move (issue 31):
      // none of ours then, and What changed says why.
      sameBatch(data.to_batch?.as_of, dataAsOf) &&
      heldChanges(data.method_changes).length === 0 &&
      !teamChangesComputing(data)
        ? new Map(
            data.countries.flatMap((c) =>
              typeof c.delta_risk === 'number'
                ? [[c.iso.toUpperCase(), c.delta_risk] as const]
                : [],
            ),
          )
        : null,
    [dataAsOf],
  );
  // Asked for after the first frame, as the strip under the index asks (AfterFirstPaint): the
  // first frame waits for nothing but the countries and hotspots (issue 11, point 11); the
  // provider's figure, marked, shows until then.
  const afterFirstFrame = useDeferredValue(true, false);
  const changes = useQuery({
    ...bffQueries.changes('previous', asOf, index),
    select,
    enabled: afterFirstFrame,
  });
  return changes.data ?? null;
}

/** A team-view answer of What changed whose batches' team figures are not computed yet. */
export function teamChangesComputing(data: unknown): boolean {
  const index = (data as { index?: { kind?: unknown; computing?: unknown } } | undefined)?.index;
  return index?.kind === 'team' && index.computing !== undefined;
}

/**
 * In the team view, what the change figures are: the team index's, or still being computed
 * (words for the note beside a table); null in the provider's view.
 */
export function useTeamChangesNote(): string | null {
  const asOf = useAsOf();
  const [index] = useRiskIndex();
  const changes = useQuery({
    ...bffQueries.changes('previous', asOf, index),
    select: ({ data }: Fetched<ChangesResponse>) => teamChangesComputing(data),
    enabled: index === 'team',
  });
  if (index !== 'team') return null;
  if (changes.data === undefined) return null;
  return changes.data ? t('table.teamChangesComputing') : t('table.teamChanges');
}
