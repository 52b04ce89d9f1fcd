import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMatches, useSearchParams } from 'react-router';
import type { ParseKeys } from 'i18next';

export interface SkipLink {
  /** Id of the element to land on (focusable: tabIndex -1 or 0). */
  target: string;
  label: string;
}

/**
 * What a route may declare in its `handle`: extra skip links for its own landmarks, or a function
 * of the page's query when what is on the page depends on it (a link must not point at nothing).
 */
export interface SkipLinksHandle {
  skipLinks?: readonly SkipLink[] | ((params: URLSearchParams) => readonly SkipLink[]);
}

/** The routes' landmarks by id, in the catalogue; a route's own label is the English fallback. */
const SKIP_WORDS: Readonly<Record<string, ParseKeys>> = {
  'world-map': 'skip.map',
  'hotspot-rows': 'skip.hotspots',
  'all-countries-rows': 'skip.allCountries',
  'country-events': 'skip.events',
};

function linksOf(handle: unknown, params: URLSearchParams): readonly SkipLink[] {
  if (typeof handle !== 'object' || handle === null || !('skipLinks' in handle)) return [];
  const links = (handle as SkipLinksHandle).skipLinks ?? [];
  return typeof links === 'function' ? links(params) : links;
}

const sameIds = (a: ReadonlySet<string>, b: readonly string[]): boolean =>
  a.size === b.length && b.every((id) => a.has(id));

/**
 * Which of `ids` are in the document, followed while the page draws: a route's landmark is a
 * skeleton, an error or an empty note for a while (the table's rows are its target), and a skip
 * link to nothing is a dead Tab stop (axe's `region` rule flagged it mid-load). One observer of
 * the body while the route has links; each change costs a lookup per id.
 */
function usePresentIds(ids: readonly string[]): ReadonlySet<string> {
  const key = ids.join(' ');
  const [present, setPresent] = useState<ReadonlySet<string>>(() => new Set());
  useEffect(() => {
    const wanted = key === '' ? [] : key.split(' ');
    const check = () => {
      const found = wanted.filter((id) => document.getElementById(id) !== null);
      setPresent((before) => (sameIds(before, found) ? before : new Set(found)));
    };
    check();
    if (wanted.length === 0) return;
    const observer = new MutationObserver(check);
    observer.observe(document.body, {
      childList: true,
      subtree: true,
      attributes: true,
      attributeFilter: ['id'],
    });
    return () => observer.disconnect();
  }, [key]);
  return present;
}

/**
 * The first Tab stops of every page: "Skip to content", then the current route's own skip links
 * (the overview's map and table), so a keyboard user reaches what they came for in a few presses.
 * A route's link is shown once its target is on the page.
 */
export function SkipLinks() {
  const [params] = useSearchParams();
  const declared = useMatches().flatMap((match) => linksOf(match.handle, params));
  const present = usePresentIds(declared.map((link) => link.target));
  const extra = declared.filter((link) => present.has(link.target));
  const { t } = useTranslation();
  return (
    <>
      <a className="skip-link" href="#main">
        {t('shell.skipToContent')}
      </a>
      {extra.map((link) => (
        <a key={link.target} className="skip-link" href={`#${link.target}`}>
          {link.target in SKIP_WORDS ? t(SKIP_WORDS[link.target]!) : link.label}
        </a>
      ))}
    </>
  );
}
