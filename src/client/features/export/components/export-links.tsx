import { useQuery } from '@tanstack/react-query';
import { withAsOf } from '../../../../shared/page-data';
import { useAsOf } from '../../../lib/as-of';
import { bffQueries } from '../../../lib/bff-queries';
import { t } from '../../../lib/i18n';

/**
 * The provider's own files beside a country table, as plain same-origin links through the BFF:
 * the upstream's raw export as it sent it. The table's own download is the spreadsheet of the
 * rows shown (issue 33, point 2: one spreadsheet per view, in the columns of every country
 * spreadsheet; the BFF's `/api/spreadsheet/countries` remains for scripts). As of a past batch
 * (`?as_of=`), in place of the raw files (the upstream's latest only) the batch's recorded
 * content, which its id is a digest of.
 */
export function ExportLinks() {
  const asOf = useAsOf();
  return (
    <div
      className="export-links"
      role="group"
      aria-label={asOf === null ? t('table.providerFilesGroup') : t('table.recordedBatchGroup')}
    >
      {asOf === null ? (
        <>
          <span className="export-label">{t('table.providerFiles')}</span>
          <a className="button" href="/api/v1/export?format=csv" download>
            {t('table.rawCsv')}
          </a>
          <a className="button" href="/api/v1/export?format=json" download>
            {t('table.rawJson')}
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
      title={t('table.batchContentTitle')}
    >
      {t('table.batchContent')}
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
        {t('table.downloadCountry', { name })}
      </a>
    </p>
  );
}
