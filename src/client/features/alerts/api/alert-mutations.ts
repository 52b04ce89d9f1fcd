import { useMutation, useQueryClient } from '@tanstack/react-query';
import { alertQueries, markAlertsRead } from './alert-queries';

/** Marks alerts read (some, or all); every alert query (lists, unread counts) follows. */
export function useMarkAlertsRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (ids: string[] | 'all') => markAlertsRead(ids),
    onSettled: () => queryClient.invalidateQueries({ queryKey: alertQueries.all() }),
  });
}
