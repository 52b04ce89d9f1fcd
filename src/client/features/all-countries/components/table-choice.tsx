import { useTableChoice } from '../hooks/use-table-choice';

/** Switches the overview's table between the top hotspots and every country of the batch. */
export function TableChoice() {
  const { table, setTable } = useTableChoice();
  return (
    <div className="segmented" role="group" aria-label="Table shows">
      <button
        type="button"
        aria-pressed={table === 'hotspots'}
        onClick={() => setTable('hotspots')}
      >
        Hotspots
      </button>
      <button type="button" aria-pressed={table === 'all'} onClick={() => setTable('all')}>
        All countries
      </button>
    </div>
  );
}
