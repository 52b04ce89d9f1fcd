import { useSearchParams } from 'react-router';
import { parseTierList } from '../../../../shared/page-data';

/**
 * Downloads go through the BFF as plain same-origin links. "Spreadsheet" is the BFF's own CSV
 * (byte-order mark, header first, labels, the view's tier filter, a file name with the batch
 * time); "raw" is the upstream's file as it sent it.
 */
export function ExportLinks() {
  const [params] = useSearchParams();
  const tiers = parseTierList(params.get('tier'));
  const query = tiers.length > 0 ? `?${new URLSearchParams({ tier: tiers.join(',') })}` : '';
  return (
    <div className="export-links" role="group" aria-label="Export the latest data">
      <span className="export-label">Export:</span>
      <a
        className="button"
        href={`/api/spreadsheet/countries${query}`}
        download
        title={
          tiers.length > 0
            ? 'Every country of the selected tiers, for Excel and other spreadsheets'
            : 'Every country, for Excel and other spreadsheets'
        }
      >
        Spreadsheet (CSV{tiers.length > 0 ? ', these tiers' : ''})
      </a>
      <a className="button" href="/api/v1/export?format=csv" download>
        Raw CSV
      </a>
      <a className="button" href="/api/v1/export?format=json" download>
        Raw JSON
      </a>
    </div>
  );
}

/** The country page's download: its scores and categories as a spreadsheet CSV. */
export function CountryExportLink({ iso, name }: { iso: string; name: string }) {
  return (
    <p className="export-links">
      <a className="button" href={`/api/spreadsheet/country/${encodeURIComponent(iso)}`} download>
        Download {name} as CSV
      </a>
    </p>
  );
}
