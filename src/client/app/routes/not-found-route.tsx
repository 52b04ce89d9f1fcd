import { useLocation } from 'react-router';
import { Link } from '../../lib/app-link';
import { t } from '../../lib/i18n';
import { pageTitle } from '../../lib/page-title';

export function NotFoundRoute() {
  const location = useLocation();
  return (
    <div className="page-message">
      <title>{pageTitle(t('pages.notFound'))}</title>
      <h1>{t('pages.notFound')}</h1>
      <p>
        {t('pages.noPageAt')}{' '}
        <code translate="no" dir="ltr">
          {location.pathname}
        </code>
      </p>
      <p>
        <Link to="/">{t('pages.backToOverview')}</Link>
      </p>
    </div>
  );
}
