import { useMatches } from 'react-router';

export interface SkipLink {
  /** Id of the element to land on (focusable: tabIndex -1 or 0). */
  target: string;
  label: string;
}

/** What a route may declare in its `handle`: extra skip links for its own landmarks. */
export interface SkipLinksHandle {
  skipLinks?: readonly SkipLink[];
}

function linksOf(handle: unknown): readonly SkipLink[] {
  if (typeof handle !== 'object' || handle === null || !('skipLinks' in handle)) return [];
  return (handle as SkipLinksHandle).skipLinks ?? [];
}

/**
 * The first Tab stops of every page: "Skip to content", then the current route's own skip links
 * (the overview's map and table), so a keyboard user reaches what they came for in a few presses.
 */
export function SkipLinks() {
  const extra = useMatches().flatMap((match) => linksOf(match.handle));
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      {extra.map((link) => (
        <a key={link.target} className="skip-link" href={`#${link.target}`}>
          {link.label}
        </a>
      ))}
    </>
  );
}
