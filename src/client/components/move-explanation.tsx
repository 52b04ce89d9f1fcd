import type { ExplainResponse } from '../../shared/explain-api';
import { formatSigned, formatUtcDateTime, humanise } from '../lib/format';
import { TableHead, TableRegion } from './data-table';

/** Events listed under an explanation; the count says how many there were in all. */
const EVENTS_SHOWN = 8;

const percent = (weight: number | null): string =>
  weight === null ? 'n/a' : `${Math.round(weight * 100)} %`;

/**
 * Why a country moved between two batches, in words first (the server's sentence, so the page,
 * the API and a brief say the same), then the categories that moved with their weights and
 * static/active split, then the country's events between the two batches.
 */
export function MoveExplanation({ data, name }: { data: ExplainResponse; name: string }) {
  const moved = data.categories.filter((c) => c.delta_score !== null && c.delta_score !== 0);
  const events = data.events.slice(0, EVENTS_SHOWN);
  const more = data.events.length - events.length;
  return (
    <div className="move-explanation">
      <p className="why-sentence">{data.sentence}</p>
      <p className="muted">
        {formatUtcDateTime(data.from_batch.as_of)} → {formatUtcDateTime(data.to_batch.as_of)}.
        Static {formatSigned(data.delta_static, 1)}, active {formatSigned(data.delta_active, 1)}.
      </p>
      {moved.length > 0 ? (
        <TableRegion label={`Categories of ${name} that moved`}>
          <table className="data-table why-table">
            <caption className="visually-hidden">
              Categories of {name} that moved, largest change first
            </caption>
            <TableHead
              columns={[
                { label: 'Category' },
                { label: 'Change' },
                { label: 'Weight' },
                { label: 'Static' },
                { label: 'Active' },
              ]}
            />
            <tbody>
              {moved.map((c) => (
                <tr key={c.category}>
                  <th scope="row">{humanise(c.category)}</th>
                  <td className="num">{formatSigned(c.delta_score, 1)}</td>
                  <td className="num">{percent(c.weight)}</td>
                  <td className="num">{formatSigned(c.delta_static, 1)}</td>
                  <td className="num">{formatSigned(c.delta_active, 1)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableRegion>
      ) : null}
      {data.events.length === 0 ? (
        <p className="muted">No events recorded for {name} between the two batches.</p>
      ) : (
        <>
          <p className="why-events-count">
            {data.events.length} event{data.events.length === 1 ? '' : 's'} between the two batches,{' '}
            {data.breaking_events} breaking:
          </p>
          <ul className="why-events">
            {events.map((event, index) => (
              <li key={`${event.ts}-${index}`}>
                <time dateTime={event.ts}>{formatUtcDateTime(event.ts)}</time>{' '}
                {event.breaking ? <span className="badge badge-breaking">Breaking</span> : null}{' '}
                {event.headline ?? 'Untitled event'}
                {event.source ? <span className="muted"> ({event.source})</span> : null}
              </li>
            ))}
          </ul>
          {more > 0 ? <p className="muted">… and {more} more.</p> : null}
        </>
      )}
    </div>
  );
}
