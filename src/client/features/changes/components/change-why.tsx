import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { MoveExplanation } from '../../../components/move-explanation';
import { QueryError } from '../../../components/query-error';
import { Skeleton } from '../../../components/skeleton';
import { changesQueries } from '../api/changes-queries';
import { t } from '../../../lib/i18n';

/** The two batches What changed compares (their `as_of`). */
export interface Between {
  from: string;
  to: string;
  /** The provider's method change between them, in words (issue 31): named first in "Why?". */
  method?: string | null;
}

/**
 * A "Why?" disclosure beside a moved country: asked only when opened (one request per country a
 * reader wants explained, not one per row), for exactly the two batches the panel compares.
 */
export function ChangeWhy({ iso, name, between }: { iso: string; name: string; between: Between }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  return (
    <>
      {' '}
      <button
        type="button"
        className="link-button why-toggle"
        aria-expanded={open}
        aria-controls={id}
        aria-label={t('changes.whyLabel', { name })}
        onClick={() => setOpen((was) => !was)}
      >
        {t('changes.why')}
      </button>
      <div id={id} hidden={!open}>
        {open ? <Explanation iso={iso} name={name} between={between} /> : null}
      </div>
    </>
  );
}

function Explanation({ iso, name, between }: { iso: string; name: string; between: Between }) {
  const query = useQuery(changesQueries.explain(iso, between.from, between.to));
  if (query.isPending) return <Skeleton label={t('changes.whyLoading', { name })} lines={2} />;
  if (query.isError && !query.data) {
    return (
      <QueryError
        what={t('changes.whyError', { name })}
        error={query.error}
        onRetry={() => void query.refetch()}
      />
    );
  }
  return (
    <>
      {between.method ? <p className="why-method">{between.method}</p> : null}
      <MoveExplanation data={query.data.data} name={name} />
    </>
  );
}
