import type { QueryClient } from '@tanstack/react-query';
import { countryPageCode } from '../../shared/page-data';
import { changesQueries } from '../features/changes/api/changes-queries';
import { countryQueries } from '../features/country/api/country-queries';
import { hotspotQueries } from '../features/hotspots/api/hotspot-queries';
import { parseFilters } from '../features/hotspots/utils/filters';
import { shapeQueries } from '../features/map/api/shape-queries';
import { countrySummaryQueries } from '../features/overview/api/country-summary-queries';
import { statusQueries } from '../features/status/api/status-queries';
import { loadCountryRoute } from './load-country-route';
import { worldMapQuery } from './load-world-map';
import { parseAsOf } from '../lib/as-of';
import { hasEarlierBatch } from '../lib/recorded-batches';
import { parseRiskIndex } from '../lib/risk-index';
import type { RiskIndex } from '../../shared/team-index-api';
import { meQueries } from '../lib/me-queries';

/**
 * How long React's first render waits for the first page's data and chunks. On a good
 * connection they are all in well within it (the data was preloaded with the HTML), and the
 * first render draws the page itself; on a slow one the page's loading frames show after it and
 * everything fills in as it arrives, as without the wait.
 */
export const FIRST_RENDER_WAIT_MS = 300;

/**
 * How long it waits when the server's first frame of the page is on screen (issue 32): the
 * reader already sees the page, and a first render without its data would replace the frame's
 * index, movers and map with loading frames that grow as the answers come (a layout shift of
 * 0.077 on a phone in a loaded CI run, whose answers took over a second). The SPA takes over
 * when it can draw what the frame shows; the limit only bounds a BFF that stopped answering.
 */
export const FRAMED_RENDER_WAIT_MS = 10_000;

/**
 * Starts the loads the page at this URL needs first, with the same query options as its
 * components, so they find them in the cache.
 */
function startFirstLoads(
  queryClient: QueryClient,
  { pathname, search }: Pick<Location, 'pathname' | 'search'>,
): Promise<unknown>[] {
  const params = new URLSearchParams(search);
  const asOf = parseAsOf(params.get('as_of'));
  if (pathname === '/') {
    const status = queryClient.prefetchQuery(statusQueries.current());
    return [
      status,
      status.then(() => recordedMoves(queryClient, asOf, parseRiskIndex(params.get('index')))),
      queryClient.prefetchQuery(meQueries.current()),
      queryClient.prefetchQuery(countrySummaryQueries.list(asOf)),
      queryClient.prefetchQuery(hotspotQueries.list(parseFilters(params), asOf)),
      // Leaflet and the shapes: requested now rather than after the first commit.
      queryClient.prefetchQuery(worldMapQuery()),
      queryClient.prefetchQuery(shapeQueries.world()),
    ];
  }
  // Every page: the status decides the banner and the header's links, and who is signed in the
  // audit link and user menu (a line of their own on a phone), all drawn above the page, so the
  // first render must know them or the whole page moves down when they arrive.
  const status = queryClient.prefetchQuery(statusQueries.current());
  const header = [status, queryClient.prefetchQuery(meQueries.current())];
  const country = countryPageCode(pathname);
  if (!country) return header;
  // The route's lazy() takes the same module; a failed load is reported by the route.
  const route = loadCountryRoute().catch(() => undefined);
  // Data for the same URLs the BFF preloads (shared/page-data.ts): the canonical form only.
  if (!country.canonical) return [route, ...header];
  return [
    route,
    ...header,
    queryClient.prefetchQuery(countryQueries.detail(country.iso, asOf)),
    status.then(() =>
      recordedChange(queryClient, country.iso, asOf, parseRiskIndex(params.get('index'))),
    ),
  ];
}

/** Whether the status, once in, says the BFF keeps history (recorded batches to compare). */
function keepsHistory(queryClient: QueryClient): boolean {
  return Boolean(queryClient.getQueryData(statusQueries.current().queryKey)?.data.history);
}

/**
 * The overview's movers strip (what moved since the batch recorded before), drawn in the first
 * render under the index: asked for as the app starts, once the status says the BFF keeps
 * history, with the strip's query options. Behind the server's first frame the first render
 * waits for it, so the frame's movers give way to the recorded ones, not to a blank strip and
 * then "Loading what moved…".
 */
async function recordedMoves(
  queryClient: QueryClient,
  asOf: string | null,
  index: RiskIndex,
): Promise<void> {
  if (!keepsHistory(queryClient)) return;
  await queryClient.prefetchQuery(changesQueries.since('previous', asOf, index));
}

/**
 * A country page's header says the risk change since the batch recorded before (issue 33): the
 * country's recorded batches, then the explanation, two requests one after the other that the
 * page's first render used to start. On a phone (4x CPU) that paragraph, the page's largest
 * (its LCP), came 4.5 s after navigation. Started here instead, once the status is in and says
 * the BFF keeps history, with useMoveExplanation's query options. A failure is kept as that
 * query's error, as the other first loads' are (prefetchQuery never rejects); nothing is asked
 * twice.
 */
async function recordedChange(
  queryClient: QueryClient,
  iso: string,
  asOf: string | null,
  index: RiskIndex,
): Promise<void> {
  if (!keepsHistory(queryClient)) return;
  const batches = countryQueries.history(iso);
  await queryClient.prefetchQuery(batches);
  const history = queryClient.getQueryData(batches.queryKey);
  if (!history || !hasEarlierBatch(history, asOf)) return;
  await queryClient.prefetchQuery(countryQueries.explain(iso, null, asOf, index));
}

/**
 * Starts what the first page needs as the app starts, and resolves when it is all in (or after
 * `waitMs`). main.tsx renders then: the first render draws the overview with its
 * data and map instead of loading frames that another render replaces a moment later, which
 * took about 70 ms of main-thread work before anything real could be drawn (docs/benchmarks.md,
 * section 3).
 *
 * The data requests take the answers the BFF's preload hints already started with the HTML
 * (same URLs). A failure is kept as the query's error: the page shows it on mount rather than
 * asking again (the query client does not retry a fresh error on mount, lib/query-client.ts).
 * Never rejects.
 */
export function startPage(
  queryClient: QueryClient,
  location: Pick<Location, 'pathname' | 'search'>,
  waitMs = FIRST_RENDER_WAIT_MS,
  /** More the first render waits for, within the same limit (the router's lazy route). */
  alsoWaitFor: Promise<unknown>[] = [],
): Promise<void> {
  const loads = [...startFirstLoads(queryClient, location), ...alsoWaitFor];
  if (loads.length === 0) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, waitMs);
    void Promise.allSettled(loads).then(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/**
 * Resolves once the router has loaded the page's lazy route (every page but the overview's is
 * one). Until then it draws its HydrateFallback, nothing: a first render before it would take the
 * server's frame (the title bar at least) away and leave the page blank until the chunk came.
 */
export function routeLoaded(router: {
  state: { initialized: boolean };
  subscribe: (listener: (state: { initialized: boolean }) => void) => () => void;
}): Promise<void> {
  if (router.state.initialized) return Promise.resolve();
  return new Promise((resolve) => {
    const stop = router.subscribe((state) => {
      if (!state.initialized) return;
      stop();
      resolve();
    });
  });
}
