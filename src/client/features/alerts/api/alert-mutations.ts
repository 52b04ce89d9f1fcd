import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AcknowledgeInput } from '../../../../shared/alert-triage-api';
import { acknowledgeAlert, alertQueries, markAlertsRead } from './alert-queries';

/** Marks alerts read (some, or all); every alert query (lists, unread counts) follows. */
export function useMarkAlertsRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (ids: string[] | 'all') => markAlertsRead(ids),
    onSettled: () => queryClient.invalidateQueries({ queryKey: alertQueries.all() }),
  });
}

/**
 * Acknowledges one alert; afterwards (also after a 409, when someone else decided first) every
 * alert query is refetched so the person sees the acknowledgement that stands.
 */
export function useAcknowledgeAlert(alertId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: AcknowledgeInput) => acknowledgeAlert(alertId, input),
    onSettled: () => queryClient.invalidateQueries({ queryKey: alertQueries.all() }),
  });
}
