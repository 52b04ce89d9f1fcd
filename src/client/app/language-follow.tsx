import { useQuery } from '@tanstack/react-query';
import { useLayoutEffect } from 'react';
import { useSearchParams } from 'react-router';
import { settingsQueries } from '../features/settings/api/settings-queries';
import { applyLanguage, pageLanguage } from '../lib/i18n';
import { meQueries } from '../lib/me-queries';

/**
 * Keeps the interface in the page's language as the URL and the saved setting change:
 * `?lang=` first (a shared link carries it), then the person's setting, then the browser's.
 * The setting exists only for a signed-in person; the shared token and open access have none.
 */
export function LanguageFollow() {
  const [params] = useSearchParams();
  const me = useQuery(meQueries.current());
  const person = me.data?.data.via === 'oidc' || me.data?.data.via === 'proxy';
  const settings = useQuery({ ...settingsQueries.mine(), enabled: person });
  const language = pageLanguage({
    query: params.get('lang'),
    setting: settings.data?.data.settings.language ?? null,
    browser: typeof navigator === 'undefined' ? [] : navigator.languages,
  });
  // Before paint: a page switched to Arabic must not flash a frame laid out left to right.
  useLayoutEffect(() => applyLanguage(language, document.documentElement), [language]);
  return null;
}
