import { useMemo } from 'react';
import { useAsOf } from '../../../lib/as-of';
import { upToBatch, type ComparedCountry } from '../utils/compare-rows';

/** The compared countries as of the batch the page shows (`?as_of=`), or as recorded. */
export function useComparedAsOf(countries: readonly ComparedCountry[]): readonly ComparedCountry[] {
  const asOf = useAsOf();
  return useMemo(() => upToBatch(countries, asOf), [countries, asOf]);
}
