import { useCallback, type ComponentProps } from 'react';
import {
  Link as RouterLink,
  useLocation,
  useNavigate,
  type NavigateOptions,
  type To,
} from 'react-router';
import { parseAsOf, showsAsOf } from './as-of';

/**
 * `to` with the batch being viewed carried over: a link from a page showing a past batch to
 * another page that can show it opens that page at the same batch, so a reader never slips
 * from "as of 12 Nov" into today's numbers by following a link. Targets that already name a
 * batch, other pages and other origins are left as they are.
 */
export function keepAsOf(to: To, currentSearch: string): To {
  const asOf = parseAsOf(new URLSearchParams(currentSearch).get('as_of'));
  if (asOf === null || typeof to !== 'string' || !to.startsWith('/')) return to;
  const url = new URL(to, 'http://app.invalid');
  if (!showsAsOf(url.pathname) || url.searchParams.has('as_of')) return to;
  url.searchParams.set('as_of', asOf);
  return `${url.pathname}${url.search}${url.hash}`;
}

/** react-router's Link, keeping the batch being viewed (see keepAsOf). */
export function Link({ to, ...props }: ComponentProps<typeof RouterLink>) {
  const { search } = useLocation();
  return <RouterLink to={keepAsOf(to, search)} {...props} />;
}

/** react-router's navigate, keeping the batch being viewed (see keepAsOf). */
export function useAppNavigate(): (to: To, options?: NavigateOptions) => void | Promise<void> {
  const navigate = useNavigate();
  const { search } = useLocation();
  return useCallback(
    (to: To, options?: NavigateOptions) => navigate(keepAsOf(to, search), options),
    [navigate, search],
  );
}

/** A link that always opens the latest data (the new-batch notice's, "back to the latest"). */
export { RouterLink as LinkToLatest };
