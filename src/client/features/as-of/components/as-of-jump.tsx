import { useId } from 'react';
import { useSearchParams } from 'react-router';
import { DAY_MS } from '../../../../shared/durations';
import { useAsOf } from '../../../lib/as-of';
import { t } from '../../../lib/i18n';

/**
 * Straight to a day (issue 33, point 3): a date field, "A week ago" and "A month ago". Each sets
 * `?as_of=`; the server answers the newest batch recorded at or before it, so a day means its
 * last batch (up to 23:59:59 UTC).
 */
export function AsOfJump({ now }: { now: () => number }) {
  const id = useId();
  const asOf = useAsOf();
  const [, setParams] = useSearchParams();
  const go = (iso: string) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.set('as_of', iso);
        return next;
      },
      { preventScrollReset: true },
    );
  const daysAgo = (days: number) => go(new Date(now() - days * DAY_MS).toISOString());
  return (
    <form
      className="as-of-jump"
      onSubmit={(event) => {
        event.preventDefault();
        const day = new FormData(event.currentTarget).get('day');
        if (typeof day === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(day)) go(`${day}T23:59:59Z`);
      }}
    >
      <label htmlFor={`${id}-day`}>{t('asOf.dayLabel')}</label>
      <input id={`${id}-day`} type="date" name="day" defaultValue={asOf?.slice(0, 10) ?? ''} />
      <button type="submit">{t('asOf.open')}</button>
      <button type="button" onClick={() => daysAgo(7)}>
        {t('asOf.weekAgo')}
      </button>
      <button type="button" onClick={() => daysAgo(30)}>
        {t('asOf.monthAgo')}
      </button>
    </form>
  );
}
