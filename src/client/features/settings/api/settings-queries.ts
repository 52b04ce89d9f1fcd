import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  personSettingsResponseSchema,
  type PersonSettingsInput,
} from '../../../../shared/person-settings-api';
import { fetchBff } from '../../../lib/api-client';
import { writeBff } from '../../../lib/api-write';
import { t } from '../../../lib/i18n';

export const settingsQueries = {
  all: () => ['me-settings'] as const,
  mine: () =>
    queryOptions({
      queryKey: settingsQueries.all(),
      queryFn: ({ signal }) => fetchBff('/api/me/settings', personSettingsResponseSchema, signal),
      meta: { label: t('queries.deliverySettings') },
    }),
};

/** Saves the settings against the version shown (a 412 says another tab saved first). */
export function useSaveSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ input, version }: { input: PersonSettingsInput; version: number }) =>
      writeBff('PUT', '/api/me/settings', personSettingsResponseSchema, {
        body: input,
        ifMatch: `"${version}"`,
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: settingsQueries.all() }),
  });
}
