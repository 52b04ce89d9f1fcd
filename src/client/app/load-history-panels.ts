import { queryOptions } from '@tanstack/react-query';

/**
 * The overview's panels under the map, the global trend and What changed: their own chunks (seven
 * files with what they import), loaded through the query cache as the world map is
 * (load-world-map.ts says why not React.lazy), asked for in the render after the first. The table
 * below them waits for them too (overview-panels.tsx), so all three come in one render. Loaded
 * by React.lazy apart, What changed came after the trend and the table on a loaded machine, grew
 * from its loading frame (171 px on a phone) to its lists (1,500 px) and pushed the table below
 * a reader's screen (a layout shift of 0.076). Not before the first render: its requests would
 * wait on, and for, the page's own. No refresh label: a loaded chunk is never asked for again.
 */
export const historyPanelsQuery = () =>
  queryOptions({
    queryKey: ['chunk', 'history-panels'] as const,
    queryFn: async () => {
      const [trend, changes] = await Promise.all([
        import('../features/history/components/global-trend-panel'),
        import('../features/changes/components/changes-panel'),
      ]);
      return { GlobalTrendPanel: trend.GlobalTrendPanel, ChangesPanel: changes.ChangesPanel };
    },
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: Number.POSITIVE_INFINITY,
  });
