import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { CountryFigures } from '../components/country-option';
import { countrySummaryQueries } from '../features/overview/api/country-summary-queries';
import { referenceQueries } from '../features/reference/api/reference-queries';

/**
 * What a country search needs (the palette and the watchlist form's picker): every ISO country
 * with its common names, and each country's tier and risk in the latest batch. `enabled` false
 * asks for nothing (the palette fetches on first opening).
 */
export function useCountryChoices(enabled = true) {
  const reference = useQuery({ ...referenceQueries.countries(), enabled });
  const summaries = useQuery({ ...countrySummaryQueries.list(), enabled });
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
