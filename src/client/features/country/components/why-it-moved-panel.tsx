import { MoveExplanation } from '../../../components/move-explanation';
import { QueryError } from '../../../components/query-error';
import { Skeleton } from '../../../components/skeleton';
import { useMoveExplanation } from '../hooks/use-move-explanation';
import { t } from '../../../lib/i18n';

/**
 * "Why it moved" as a disclosure right at the number it explains (issue 33, point 4: the panel
 * was two to four screens below the header's change). Its answer is the one the header's
 * recorded change already asked for (useMoveExplanation), so opening it costs no request.
 */
export function WhyItMovedDisclosure(props: { iso: string; name: string; asOf: string | null }) {
  return (
    <details className="why-disclosure">
      <summary>{t('why.heading')}</summary>
      <WhyItMovedPanel {...props} />
    </details>
  );
}

/**
 * "Why it moved": the batch shown (the latest, or `?as_of=`) against the batch before it. A
 * country with one recorded batch, or new in this one, has nothing to compare: said, not an error.
 */
export function WhyItMovedPanel({
  iso,
  name,
  asOf,
}: {
  iso: string;
  name: string;
  asOf: string | null;
}) {
  const { query, nothingToCompare } = useMoveExplanation(iso, asOf);
  return (
    <section className="panel why-panel" aria-labelledby="why-heading">
      <div className="panel-head">
        <h2 id="why-heading">{t('why.heading')}</h2>
      </div>
      {nothingToCompare && !query.data ? (
        <p className="empty">{t('why.nothingToCompare', { name })}</p>
      ) : query.isPending ? (
        <Skeleton label={t('why.loading', { name })} lines={3} />
      ) : query.isError && !query.data ? (
        <QueryError
          what={t('why.error', { name })}
          error={query.error}
          onRetry={() => void query.refetch()}
        />
      ) : (
        <MoveExplanation data={query.data.data} name={name} />
      )}
    </section>
  );
}
