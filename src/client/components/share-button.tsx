import { useState } from 'react';
import { useLocation } from 'react-router';
import { t } from '../lib/i18n';

type State = 'idle' | 'copied' | 'manual';

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
      setTimeout(() => setState('idle'), 4000);
    } catch {
      setState('manual');
    }
  };

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
