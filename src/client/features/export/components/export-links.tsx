/**
 * Downloads go through the BFF as plain same-origin links, so the browser saves the file under
 * the name the upstream's Content-Disposition gives (e.g. ggri-export-2025-06-02.csv).
 */
export function ExportLinks() {
  return (
    <div className="export-links" role="group" aria-label="Export the latest data">
      <span className="export-label">Export all countries:</span>
      <a className="button" href="/api/v1/export?format=csv" download>
        CSV
      </a>
      <a className="button" href="/api/v1/export?format=json" download>
        JSON
      </a>
    </div>
  );
}
