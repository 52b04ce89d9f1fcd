import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { AUDIT_FILTERS, type AuditEntry, type AuditFilters } from '../../../../shared/audit-api';
import { auditSentence } from '../../../../shared/audit-words';
import { QueryError } from '../../../components/query-error';
import { TableHead } from '../../../components/data-table';
import { Skeleton } from '../../../components/skeleton';
import { adminQueries, auditSearch } from '../api/admin-queries';
import { AuditFilterForm } from './audit-filters';

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

/** One entry; on a phone each row is a card, each cell labelled by its column (audit.css). */
function EntryRow({ entry }: { entry: AuditEntry }) {
  return (
    <tr>
      <td data-label="When">{when(entry.at)}</td>
      <th scope="row" data-label="What happened">
        {auditSentence(entry)}
      </th>
      <td data-label="Who">
        {entry.who.email && entry.who.email !== entry.who.name ? `${entry.who.email}` : ''}
        <span className="audit-via"> {entry.who.via}</span>
      </td>
      <td data-label="Address">{entry.address ?? ''}</td>
      <td data-label="Object">{entry.object ?? ''}</td>
      <td data-label="Outcome">
        {entry.status < 400
          ? `Done (${entry.status})`
          : `Refused (${entry.status}): ${entry.detail ?? ''}`}
      </td>
      <td data-label="Change">
        <Change label="Before" value={entry.before} />
        <Change label="After" value={entry.after} />
      </td>
    </tr>
  );
}

const COLUMNS = ['When', 'What happened', 'E-mail · signed in by', 'Address', 'Object', 'Outcome'];

function EntriesTable({ entries }: { entries: AuditEntry[] }) {
  return (
    <table className="audit-table">
      <TableHead columns={[...COLUMNS, 'Change'].map((label) => ({ label }))} />
      <tbody>
        {entries.map((entry) => (
          <EntryRow key={entry.id} entry={entry} />
        ))}
      </tbody>
    </table>
  );
}

function filtersOf(params: URLSearchParams): AuditFilters {
  const filters: AuditFilters = {};
  for (const name of AUDIT_FILTERS) {
    const value = params.get(name);
    if (value) filters[name] = value;
  }
  return filters;
}

/**
 * `/admin/audit`: the audit log, newest first, in plain words. Its filters and page live in the
 * URL (a link shows the same entries to another admin); the CSV link downloads the same filters.
 */
export function AuditLog() {
  const [params, setParams] = useSearchParams();
  const filters = filtersOf(params);
  const cursor = params.get('cursor');
  const page = useQuery(adminQueries.audit(filters, cursor));
  const older = page.data?.data.next_cursor;

  return (
    <section aria-labelledby="audit-heading" className="audit-log">
      <h2 id="audit-heading">Audit log</h2>
      <AuditFilterForm
        key={params.toString()}
        filters={filters}
        onApply={(next) => setParams(new URLSearchParams(auditSearch(next).slice(1)))}
      />
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
        <EntriesTable entries={page.data.data.entries} />
      )}
      {older ? (
        <button
          type="button"
          className="button"
          onClick={() => {
            const next = new URLSearchParams(params);
            next.set('cursor', older);
            setParams(next);
          }}
        >
          Older entries
        </button>
      ) : null}
    </section>
  );
}
