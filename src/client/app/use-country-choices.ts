import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { CountryFigures } from '../components/country-option';
import { countrySummaryQueries } from '../features/overview/api/country-summary-queries';
import { referenceQueries } from '../features/reference/api/reference-queries';

/**
 * What a country search needs (the palette and the watchlist form's picker): every ISO country
 * with its common names, and each country's tier and risk in the latest batch, or in the batch a
 * page shows (`asOf`: a watchlist as of a batch asks for nothing newer). `enabled` false asks for
 * nothing (the palette fetches on first opening).
 */
export function useCountryChoices(enabled = true, asOf: string | null = null) {
  const reference = useQuery({ ...referenceQueries.countries(), enabled });
  const summaries = useQuery({ ...countrySummaryQueries.list(asOf), enabled });
  const figures = useMemo<CountryFigures | null>(
    () => (summaries.data ? new Map(summaries.data.data.countries.map((c) => [c.iso, c])) : null),
    [summaries.data],
  );
  return {
    countries: reference.data?.data.countries,
    loadError: reference.error,
    figures,
  };
}
