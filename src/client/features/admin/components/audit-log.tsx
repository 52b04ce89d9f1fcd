import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { AUDIT_FILTERS, type AuditEntry, type AuditFilters } from '../../../../shared/audit-api';
import { QueryError } from '../../../components/query-error';
import { TableHead } from '../../../components/data-table';
import { Skeleton } from '../../../components/skeleton';
import { adminQueries, auditSearch } from '../api/admin-queries';

const LABELS: Record<(typeof AUDIT_FILTERS)[number], string> = {
  who: 'Who (name, e-mail or subject)',
  action: 'Action (exact, or ending in *)',
  object: 'Object (exact, or ending in *)',
  since: 'Since (UTC, e.g. 2026-11-01)',
  until: 'Until (UTC)',
};

function when(iso: string): string {
  return `${iso.slice(0, 19).replace('T', ' ')} UTC`;
}

function Change({ label, value }: { label: string; value: unknown }) {
  if (value === null || value === undefined) return null;
  return (
    <details>
      <summary>{label}</summary>
      <pre className="audit-json">{JSON.stringify(value, null, 2)}</pre>
    </details>
  );
}

function EntryRow({ entry }: { entry: AuditEntry }) {
  return (
    <tr>
      <td>{when(entry.at)}</td>
      <td>
        {entry.who.name}
        {entry.who.email && entry.who.email !== entry.who.name ? ` (${entry.who.email})` : ''}
        <span className="audit-via"> · {entry.who.via}</span>
      </td>
      <td>{entry.address ?? ''}</td>
      <td>{entry.action}</td>
      <td>{entry.object ?? ''}</td>
      <td>
        {entry.status < 400
          ? `Done (${entry.status})`
          : `Refused (${entry.status}): ${entry.detail ?? ''}`}
      </td>
      <td>
        <Change label="Before" value={entry.before} />
        <Change label="After" value={entry.after} />
      </td>
    </tr>
  );
}

/**
 * `/admin/audit`: the audit log, newest first. Its filters and page live in the URL (a link
 * shows the same entries to another admin); the CSV link downloads the same filters.
 */
export function AuditLog() {
  const [params, setParams] = useSearchParams();
  const filters: AuditFilters = {};
  for (const name of AUDIT_FILTERS) {
    const value = params.get(name);
    if (value) filters[name] = value;
  }
  const cursor = params.get('cursor');
  const page = useQuery(adminQueries.audit(filters, cursor));

  const apply = (form: HTMLFormElement) => {
    const data = new FormData(form);
    const next: AuditFilters = {};
    for (const name of AUDIT_FILTERS) {
      const value = data.get(name);
      if (typeof value === 'string' && value.trim()) next[name] = value.trim();
    }
    setParams(new URLSearchParams(auditSearch(next).slice(1)));
  };

  return (
    <section aria-labelledby="audit-heading">
      <h2 id="audit-heading">Audit log</h2>
      <form
        className="audit-filters"
        key={params.toString()}
        onSubmit={(event) => {
          event.preventDefault();
          apply(event.currentTarget);
        }}
      >
        {AUDIT_FILTERS.map((name) => (
          <label key={name}>
            {LABELS[name]}
            <input name={name} defaultValue={filters[name] ?? ''} />
          </label>
        ))}
        <button type="submit">Show</button>
      </form>
      <p>
        <a href={`/api/spreadsheet/audit.csv${auditSearch(filters)}`} download>
          Download as a spreadsheet (CSV)
        </a>
      </p>
      {page.isPending ? (
        <Skeleton label="Loading the audit log" />
      ) : page.isError ? (
        <QueryError error={page.error} what="The audit log" />
      ) : page.data.data.entries.length === 0 ? (
        <p>No entries match.</p>
      ) : (
        <>
          <table className="audit-table">
            <TableHead
              columns={[
                { label: 'When' },
                { label: 'Who' },
                { label: 'Address' },
                { label: 'Action' },
                { label: 'Object' },
                { label: 'Outcome' },
                { label: 'Change' },
              ]}
            />
            <tbody>
              {page.data.data.entries.map((entry) => (
                <EntryRow key={entry.id} entry={entry} />
              ))}
            </tbody>
          </table>
          {page.data.data.next_cursor ? (
            <button
              type="button"
              onClick={() => {
                const next = new URLSearchParams(params);
                next.set('cursor', page.data.data.next_cursor ?? '');
                setParams(next);
              }}
            >
              Older entries
            </button>
          ) : null}
        </>
      )}
    </section>
  );
}
