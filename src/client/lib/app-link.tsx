import { useCallback, type ComponentProps } from 'react';
import {
  Link as RouterLink,
  useLocation,
  useNavigate,
  type NavigateOptions,
  type To,
} from 'react-router';
import { parseAsOf, showsAsOf } from './as-of';
import { useLatest } from './use-latest';

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

/**
 * `to` with the page's `?lang=` carried over (issue 34): a link the app builds keeps the
 * language a shared link named, like the batch. Targets that name a language, and other
 * origins, are left as they are.
 */
export function keepLang(to: To, currentSearch: string): To {
  const lang = new URLSearchParams(currentSearch).get('lang');
  if (!lang || typeof to !== 'string' || !to.startsWith('/') || to.startsWith('//')) return to;
  const url = new URL(to, 'http://app.invalid');
  if (url.pathname.startsWith('/api/') || url.searchParams.has('lang')) return to;
  url.searchParams.set('lang', lang);
  return `${url.pathname}${url.search}${url.hash}`;
}

/** The batch and the language being viewed, carried to `to`. */
function keepView(to: To, search: string): To {
  return keepLang(keepAsOf(to, search), search);
}

/** react-router's Link, keeping the batch and language being viewed (see keepAsOf, keepLang). */
export function Link({ to, ...props }: ComponentProps<typeof RouterLink>) {
  const { search } = useLocation();
  return <RouterLink to={keepView(to, search)} {...props} />;
}

/**
 * react-router's navigate, keeping the batch being viewed (see keepAsOf). The same function while
 * the URL changes (it reads the URL when called), like react-router's own, so a memoised
 * component given a callback made with it is not redrawn by every change of the URL.
 */
export function useAppNavigate(): (to: To, options?: NavigateOptions) => void | Promise<void> {
  const navigate = useNavigate();
  const searchRef = useLatest(useLocation().search);
  return useCallback(
    (to: To, options?: NavigateOptions) => navigate(keepView(to, searchRef.current), options),
    [navigate, searchRef],
  );
}

/** A link that always opens the latest data (the new-batch notice's, "back to the latest"). */
export function LinkToLatest({ to, ...props }: ComponentProps<typeof RouterLink>) {
  const { search } = useLocation();
  return <RouterLink to={keepLang(to, search)} {...props} />;
}
