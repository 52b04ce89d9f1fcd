import { useQuery } from '@tanstack/react-query';
import { QueryError } from '../../../components/query-error';
import { TableHead } from '../../../components/data-table';
import { Skeleton } from '../../../components/skeleton';
import { useRevokeSession } from '../api/admin-mutations';
import { adminQueries } from '../api/admin-queries';

function when(iso: string): string {
  return `${iso.slice(0, 16).replace('T', ' ')} UTC`;
}

/** Who is signed in (never a session's cookie: each row has an opaque handle), and sign-out. */
export function SessionsPanel() {
  const sessions = useQuery(adminQueries.sessions());
  const revoke = useRevokeSession();
  return (
    <section aria-labelledby="sessions-heading">
      <h2 id="sessions-heading">Signed-in sessions</h2>
      {revoke.isError ? <p role="alert">{revoke.error.message}</p> : null}
      {sessions.isPending ? (
        <Skeleton label="Loading the sessions" />
      ) : sessions.isError ? (
        <QueryError error={sessions.error} what="The sessions" />
      ) : sessions.data.data.sessions.length === 0 ? (
        <p>Nobody is signed in with a session.</p>
      ) : (
        <table className="audit-table">
          <TableHead
            columns={[
              { label: 'Who' },
              { label: 'Role' },
              { label: 'Started' },
              { label: 'Last seen' },
              { label: 'Address' },
              { label: <span className="visually-hidden">End</span> },
            ]}
          />
          <tbody>
            {sessions.data.data.sessions.map((session) => (
              <tr key={session.id}>
                <td>
                  {session.name}
                  {session.email && session.email !== session.name ? ` (${session.email})` : ''}
                </td>
                <td>{session.role}</td>
                <td>{when(session.created_at)}</td>
                <td>{when(session.last_seen_at)}</td>
                <td>{session.address ?? ''}</td>
                <td>
                  <button
                    type="button"
                    disabled={revoke.isPending}
                    onClick={() => revoke.mutate(session.id)}
                  >
                    Sign out<span className="visually-hidden">: {session.name}</span>
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
