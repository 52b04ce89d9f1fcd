import { useSearchParams } from 'react-router';
import { parseAsOf } from '../../shared/page-data';

export { parseAsOf, withAsOf } from '../../shared/page-data';

/**
 * The pages that can show a recorded batch instead of the latest (`?as_of=`): the overview (and
 * its All countries table), a country, compare, a watchlist, the brief and exposure. A link from one of them to another keeps the
 * batch (lib/app-link.tsx); other pages (alerts, events, status) always show what is current.
 */
export function showsAsOf(pathname: string): boolean {
  return (
    pathname === '/' ||
    pathname.startsWith('/country/') ||
    pathname === '/compare' ||
    pathname.startsWith('/watchlists/') ||
    pathname.startsWith('/brief') ||
    pathname === '/exposure' ||
    pathname === '/exposure/brief'
  );
}

/** The batch the current page shows, or null for the latest. */
export function useAsOf(): string | null {
  const [params] = useSearchParams();
  return parseAsOf(params.get('as_of'));
}
