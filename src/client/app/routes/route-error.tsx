import { isRouteErrorResponse, useRouteError } from 'react-router';
import { Link } from '../../lib/app-link';
import { t } from '../../lib/i18n';
import { pageTitle } from '../../lib/page-title';

/** Last resort when a route itself fails (e.g. its chunk could not be loaded after a deploy). */
export function RouteError() {
  const error = useRouteError();
  const message = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : t('pages.unknownError');
  return (
    <main id="main" className="page-message">
      <title>{pageTitle(t('pages.wentWrong'))}</title>
      <h1>{t('pages.couldNotShow')}</h1>
      <p>{message}</p>
      <p>
        <a href={window.location.href}>{t('pages.reload')}</a> ·{' '}
        <Link to="/">{t('pages.goToOverview')}</Link>
      </p>
    </main>
  );
}
