import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { parseTierList, withAsOf } from '../../../../shared/page-data';
import { useAsOf } from '../../../lib/as-of';
import { bffQueries } from '../../../lib/bff-queries';

/**
 * Downloads go through the BFF as plain same-origin links. "Spreadsheet" is the BFF's own CSV
 * (byte-order mark, header first, labels, the view's tier filter, a file name with the batch
 * time); "raw" is the upstream's file as it sent it. As of a past batch (`?as_of=`) they export
 * that batch, not the latest: the spreadsheet built from it in the store, and in place of the raw
 * files (the upstream's latest only) the batch's recorded content, which its id is a digest of.
 */
export function ExportLinks() {
  const [params] = useSearchParams();
  const asOf = useAsOf();
  const tiers = parseTierList(params.get('tier'));
  const query = tiers.length > 0 ? `?${new URLSearchParams({ tier: tiers.join(',') })}` : '';
  return (
    <div
      className="export-links"
      role="group"
      aria-label={asOf === null ? 'Export the latest data' : 'Export the batch shown'}
    >
      <span className="export-label">Export:</span>
      <a
        className="button"
        href={withAsOf(`/api/spreadsheet/countries${query}`, asOf)}
        download
        title={
          tiers.length > 0
            ? 'Every country of the selected tiers, for Excel and other spreadsheets'
            : 'Every country, for Excel and other spreadsheets'
        }
      >
        Spreadsheet (CSV{tiers.length > 0 ? ', these tiers' : ''})
      </a>
      {asOf === null ? (
        <>
          <a className="button" href="/api/v1/export?format=csv" download>
            Raw CSV
          </a>
          <a className="button" href="/api/v1/export?format=json" download>
            Raw JSON
          </a>
        </>
      ) : (
        <BatchContentLink asOf={asOf} />
      )}
    </div>
  );
}

/** The recorded content of the batch shown (`/api/batches/:id`, JSON), once its id is known. */
function BatchContentLink({ asOf }: { asOf: string }) {
  // The banner asked for the same batch: one cache entry.
  const batch = useQuery(bffQueries.batchAt(asOf));
  if (!batch.data) return null;
  return (
    <a
      className="button"
      href={`/api/batches/${batch.data.id}`}
      download={`batch-${batch.data.id.slice(0, 12)}.json`}
      title="The batch as recorded, which its id is a digest of"
    >
      Batch content (JSON)
    </a>
  );
}

/** The country page's download: its scores and categories (of the batch shown) as a spreadsheet CSV. */
export function CountryExportLink({ iso, name }: { iso: string; name: string }) {
  const asOf = useAsOf();
  return (
    <p className="export-links">
      <a
        className="button"
        href={withAsOf(`/api/spreadsheet/country/${encodeURIComponent(iso)}`, asOf)}
        download
      >
        Download {name} as CSV
      </a>
    </p>
  );
}
