import { useQuery } from '@tanstack/react-query';
import type { MethodMark } from '../../../../shared/method-api';
import { MethodCaveat } from '../../../components/method-caveat';
import { bffQueries } from '../../../lib/bff-queries';
import { heldChangesBetween } from '../../../lib/method-caveat';
import { t } from '../../../lib/i18n';

/**
 * The provider's method beside the brief's batch id (issue 31): a brief read in a year says
 * which method scored its numbers. From the batch list (`/api/batches`), as the downloads cite it.
 */
export function BriefMethod({ asOf }: { asOf: string }) {
  const batch = useQuery(bffQueries.batchAt(asOf));
  const method = batch.data?.methodology_version;
  return (
    <>
      {' '}
      · {t('brief.method')} {/* The provider's name of its method, as it gave it. */}
      <code translate={method ? 'no' : undefined}>
        {batch.isPending ? '…' : (method ?? t('brief.methodUnnamed'))}
      </code>
    </>
  );
}

/**
 * A brief whose period spans a method change says so plainly, once, under its title: its
 * trends and moves mix two methods' scores there.
 */
export function BriefMethodCaveat({
  changes,
  start,
  end,
}: {
  changes: readonly MethodMark[] | undefined;
  start: string | undefined;
  end: string | undefined;
}) {
  return (
    <MethodCaveat changes={heldChangesBetween(changes, start, end)} then={t('brief.spansIt')} />
  );
}
