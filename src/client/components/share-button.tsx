import { useEffect, useState } from 'react';
import { useLocation } from 'react-router';
import { t } from '../lib/i18n';

type State = 'idle' | 'copied' | 'manual';

/** How long "Link copied" stays, counted from when it is on screen. */
const COPIED_MS = 4000;

/**
 * Copies the page's full URL (filters included) for a colleague. Where the clipboard is not
 * available (plain http on a LAN address is not a secure context), the URL is shown selected so
 * it can be copied by hand.
 */
export function ShareButton() {
  const [state, setState] = useState<State>('idle');
  // The router's location (filters included) on this page's origin: the link a colleague needs.
  const location = useLocation();
  const url = new URL(`${location.pathname}${location.search}`, window.location.origin).href;

  const copy = async () => {
    try {
      if (!navigator.clipboard) throw new Error('no clipboard');
      await navigator.clipboard.writeText(url);
      setState('copied');
    } catch {
      setState('manual');
    }
  };

  // Timed from the render that shows the words, not from the click: on a slow phone the render
  // can come late, and a timer started at the click could end before the words were ever seen.
  useEffect(() => {
    if (state !== 'copied') return;
    const timer = setTimeout(() => setState('idle'), COPIED_MS);
    return () => clearTimeout(timer);
  }, [state]);

  return (
    <div className="share">
      <button type="button" className="button" onClick={() => void copy()}>
        {t('table.shareLink')}
      </button>
      <span role="status" className="share-status">
        {state === 'copied' ? t('table.linkCopied') : ''}
      </span>
      {state === 'manual' ? (
        <label className="share-manual">
          {t('table.copyLink')}
          <input type="text" readOnly value={url} onFocus={(e) => e.target.select()} autoFocus />
        </label>
      ) : null}
    </div>
  );
}
