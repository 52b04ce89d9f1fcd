import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { meQueries } from '../../../lib/me-queries';

/** Sign-out first removes what this browser kept (the offline copy), then posts the form. */
function signOutClearingData(event: FormEvent<HTMLFormElement>): void {
  event.preventDefault();
  const form = event.currentTarget;
  // Loaded when used: sign-out is rare, and the first screen's script stays smaller.
  void import('../../../lib/stored-data')
    .then(({ clearStoredData }) => clearStoredData())
    .catch(() => undefined)
    .then(() => form.submit());
}

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
          <form method="post" action={who.sign_out} onSubmit={signOutClearingData}>
            <button type="submit">{t('shell.signOut')}</button>
          </form>
        ) : null}
      </div>
    </details>
  );
}
