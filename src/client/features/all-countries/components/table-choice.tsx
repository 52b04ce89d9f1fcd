import { useTableChoice } from '../hooks/use-table-choice';
import { t } from '../../../lib/i18n';

/** Switches the overview's table between the top hotspots and every country of the batch. */
export function TableChoice() {
  const { table, setTable } = useTableChoice();
  return (
    <div className="segmented" role="group" aria-label={t('table.tableShows')}>
      <button
        type="button"
        aria-pressed={table === 'hotspots'}
        onClick={() => setTable('hotspots')}
      >
        {t('table.hotspots')}
      </button>
      <button type="button" aria-pressed={table === 'all'} onClick={() => setTable('all')}>
        {t('table.allCountries')}
      </button>
    </div>
  );
}
