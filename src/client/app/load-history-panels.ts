import { queryOptions } from '@tanstack/react-query';

/**
 * The overview's panels under the map, the global trend and What changed: their own chunks,
 * loaded through the query cache as the world map is (load-world-map.ts says why not
 * React.lazy) and started by start-page.ts before the first render. Both at once: they then come
 * in the render after the first together with the hotspot table, so no reader meets their
 * loading frames. Loaded by React.lazy when that render came, What changed arrived later than the
 * table on a loaded machine, grew from its loading frame (171 px on a phone) to its lists
 * (1,500 px) and pushed the table below a reader's screen (a layout shift of 0.076).
 * No refresh label: a loaded chunk is never asked for again.
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
