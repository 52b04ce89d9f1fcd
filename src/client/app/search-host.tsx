import { lazy, Suspense, useCallback, useRef, useState } from 'react';
import { useAppNavigate } from '../lib/app-link';
import { usePaletteHotkeys } from '../features/search/hooks/use-palette-hotkeys';
import { useCountryChoices } from './use-country-choices';
import { t } from '../lib/i18n';

// The palette is its own chunk, asked for on intent (pointer over or focus on the button) or on
// opening: nothing of it is needed for the first view.
const loadSearchPalette = () => import('../features/search/components/search-palette');
const SearchPalette = lazy(async () => ({ default: (await loadSearchPalette()).SearchPalette }));

/**
 * The "Find a country" button of the title bar and the palette it opens (also Ctrl/Cmd+K and `/`).
 * The lists are fetched when the palette first opens; focus returns where it was on close.
 */
export function SearchHost() {
  const navigate = useAppNavigate();
  const [open, setOpen] = useState(false);
  const returnTo = useRef<HTMLElement | null>(null);
  const choices = useCountryChoices(open);

  const show = useCallback(() => {
    if (document.activeElement instanceof HTMLElement) returnTo.current = document.activeElement;
    setOpen(true);
  }, []);
  usePaletteHotkeys(show);

  const close = useCallback((focusMain = false) => {
    setOpen(false);
    const target = returnTo.current;
    // After a pick the page changed: the main content is where reading continues.
    const next = focusMain || !target?.isConnected ? document.getElementById('main') : target;
    requestAnimationFrame(() => next?.focus());
  }, []);

  return (
    <>
      <button
        type="button"
        className="search-button"
        onClick={show}
        onPointerEnter={() => void loadSearchPalette()}
        onFocus={() => void loadSearchPalette()}
        aria-haspopup="dialog"
      >
        <span aria-hidden="true">⌕ </span>
        {t('search.find')}
        <kbd className="search-kbd" aria-hidden="true">
          Ctrl K
        </kbd>
      </button>
      {open ? (
        <Suspense fallback={null}>
          <SearchPalette
            countries={choices.countries}
            loadError={choices.loadError}
            figures={choices.figures}
            onClose={() => close()}
            onPick={(iso) => {
              close(true);
              void navigate(`/country/${encodeURIComponent(iso)}`);
            }}
          />
        </Suspense>
      ) : null}
    </>
  );
}
