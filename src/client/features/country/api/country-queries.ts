import { bffQueries } from '../../../lib/bff-queries';

/** `/api/v1/country/:iso` (one definition, shared with the brief: lib/bff-queries). */
export const countryQueries = {
  all: () => ['country'] as const,
  detail: bffQueries.country,
};
