import { changesBetween, type MethodMark } from '../../shared/method-api';
import { formatUtcDateTime } from './format';
import { t } from './i18n';

/**
 * The provider's method changes a span crosses, in words (issue 31): a delta, a comparison or a
 * trend across one subtracts two methods' scores, so every view that shows one says so, in the
 * same words.
 */

/** The changes that make scores not comparable (an admin may have marked one comparable). */
export function heldChanges(changes: readonly MethodMark[] | undefined): MethodMark[] {
  return (changes ?? []).filter((change) => !change.comparable);
}

/** The held changes after `from` and at or before `to` (ISO times): those a span crosses. */
export function heldChangesBetween(
  changes: readonly MethodMark[] | undefined,
  from: string | null | undefined,
  to: string | null | undefined,
): MethodMark[] {
  return from && to ? changesBetween(heldChanges(changes), from, to) : [];
}

/** "The provider’s method changed from A to B on 1 June 2025, 10:00 UTC", in the page language. */
export function methodChangeWords(change: MethodMark): string {
  return t('problems.methodChanged', {
    from: change.from,
    to: change.to,
    date: formatUtcDateTime(change.as_of),
  });
}

/** The time of the newest held change at or before `to`, or null: where the new method starts. */
export function newMethodSince(
  changes: readonly MethodMark[] | undefined,
  to: string | null | undefined,
): string | null {
  const end = to ? Date.parse(to) : Infinity;
  const crossed = heldChanges(changes).filter((change) => Date.parse(change.as_of) <= end);
  return crossed.at(-1)?.as_of ?? null;
}
