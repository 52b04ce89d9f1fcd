import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { meQueries } from '../../../lib/me-queries';

/**
 * Who is signed in, their role, and (for a browser sign-in) a sign-out button: a form POST, so a
 * link or a prefetch cannot sign anyone out. Nothing when nobody signs in here.
 */
export function UserMenu() {
  const me = useQuery(meQueries.current());
  const who = me.data?.data;
  const { t } = useTranslation();
  if (!who || who.via === 'open') return null;
  return (
    <details className="user-menu">
      <summary>
        <span className="user-name">{who.name}</span>{' '}
        <span className="user-role">({who.role})</span>
      </summary>
      <div className="user-menu-body">
        <p>
          {t('shell.signedInAs')} <strong>{who.name}</strong>
          {who.email && who.email !== who.name ? ` (${who.email})` : ''}: {who.role}.
        </p>
        {who.sign_out ? (
          <form method="post" action={who.sign_out}>
            <button type="submit">{t('shell.signOut')}</button>
          </form>
        ) : null}
      </div>
    </details>
  );
}
