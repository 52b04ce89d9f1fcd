import { queryOptions } from '@tanstack/react-query';
import { stalenessShape } from '../../../../shared/bff-api';
import { countryResponseSchema } from '../../../../shared/schemas/responses';
import { fetchBff } from '../../../lib/api-client';
import { countryPath } from '../../../../shared/page-data';

const countryWithStaleness = countryResponseSchema.extend(stalenessShape);

/** `/api/v1/country/:iso`. Callers pass a validated, upper-cased code (see shared/iso). */
export const countryQueries = {
  all: () => ['country'] as const,
  detail: (iso: string) =>
    queryOptions({
      queryKey: [...countryQueries.all(), 'detail', iso] as const,
      queryFn: ({ signal }) => fetchBff(countryPath(iso), countryWithStaleness, signal),
      meta: { label: `the data of ${iso}` },
    }),
};
