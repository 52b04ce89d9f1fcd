import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { Link } from '../../../lib/app-link';
import { unreadQuery } from '../api/unread-query';

/**
 * The header's way to the inbox, with the number of unread alerts. Its name is its visible text
 * ("Alerts 3") followed by what the number means, so a voice user who says what they see
 * reaches it (WCAG 2.5.3; axe `label-content-name-mismatch`).
 */
export function UnreadLink() {
  const unread = useQuery(unreadQuery());
  const count = unread.data?.data.unread ?? 0;
  const { t } = useTranslation();
  return (
    <Link to="/alerts" className="unread-link">
      {t('shell.alerts')}{' '}
      <span className={count > 0 ? 'unread-count' : 'unread-count is-empty'}>
        {count > 0 ? (count > 999 ? '999+' : count) : null}
        <span className="visually-hidden">
          {count > 0 ? ` ${t('shell.unread')}` : t('shell.noneUnread')}
        </span>
      </span>
    </Link>
  );
}
