import { useQuery } from '@tanstack/react-query';
import { QueryError } from '../../../components/query-error';
import { TableHead } from '../../../components/data-table';
import { Skeleton } from '../../../components/skeleton';
import { formatUtcDateTime } from '../../../lib/format';
import { t } from '../../../lib/i18n';
import { useRevokeSession } from '../api/admin-mutations';
import { adminQueries } from '../api/admin-queries';

/** A role's word ("viewer", "lecteur"); a role this page does not know, as the BFF says it. */
function roleWords(role: string): string {
  return t(`admin.role_${role}` as 'admin.role_viewer', { defaultValue: role });
}

/** Who is signed in (never a session's cookie: each row has an opaque handle), and sign-out. */
export function SessionsPanel() {
  const sessions = useQuery(adminQueries.sessions());
  const revoke = useRevokeSession();
  return (
    <section aria-labelledby="sessions-heading">
      <h2 id="sessions-heading">{t('admin.sessionsHeading')}</h2>
      {revoke.isError ? <p role="alert">{revoke.error.message}</p> : null}
      {sessions.isPending ? (
        <Skeleton label={t('admin.loadingSessions')} />
      ) : sessions.isError ? (
        <QueryError error={sessions.error} what={t('admin.theSessions')} />
      ) : sessions.data.data.sessions.length === 0 ? (
        <p>{t('admin.noSessions')}</p>
      ) : (
        <table className="audit-table phone-cards">
          <TableHead
            columns={[
              { label: t('admin.who') },
              { label: t('admin.role') },
              { label: t('admin.started') },
              { label: t('admin.lastSeen') },
              { label: t('admin.address') },
              { label: <span className="visually-hidden">{t('admin.end')}</span> },
            ]}
          />
          <tbody>
            {sessions.data.data.sessions.map((session) => (
              <tr key={session.id}>
                <td translate="no">
                  {session.name}
                  {session.email && session.email !== session.name ? ` (${session.email})` : ''}
                </td>
                <td>{roleWords(session.role)}</td>
                <td>{formatUtcDateTime(session.created_at)}</td>
                <td>{formatUtcDateTime(session.last_seen_at)}</td>
                <td translate="no">{session.address ?? ''}</td>
                <td>
                  <button
                    type="button"
                    disabled={revoke.isPending}
                    onClick={() => revoke.mutate(session.id)}
                  >
                    {t('admin.signOut')}
                    <span className="visually-hidden" translate="no">
                      : {session.name}
                    </span>
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
