import type { ExplainResponse } from '../../shared/explain-api';
import { formatSigned, formatUtcDateTime, humanise } from '../lib/format';
import { t } from '../lib/i18n';
import { TableHead, TableRegion } from './data-table';

/** Events listed under an explanation; the count says how many there were in all. */
const EVENTS_SHOWN = 8;

/** Below this confidence the provider's figure is a weak signal (its scale is 0 to 100). */
const LOW_CONFIDENCE = 40;

/**
 * What the newer figure rests on, said plainly (issue 33, point 4): "Confidence 19 of 100 and no
 * sources: a weak basis, read this move with care."
 */
export function basisWords(
  confidence: number | null | undefined,
  sources: number | null | undefined,
): string {
  const conf =
    typeof confidence === 'number'
      ? `Confidence ${Math.round(confidence)} of 100`
      : 'No confidence given';
  const src =
    typeof sources !== 'number'
      ? 'no source count given'
      : sources === 0
        ? 'no sources'
        : `${sources} source${sources === 1 ? '' : 's'}`;
  const weak =
    (typeof confidence === 'number' && confidence < LOW_CONFIDENCE) || sources === 0
      ? ': a weak basis, read this move with care.'
      : '.';
  return `${conf} and ${src}${weak}`;
}

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
      {data.provider ? (
        // The team view explains our index's move; the provider's stays beside it (issue 31).
        <p className="why-provider">
          {t('country.whyProviderMove')} {data.provider.sentence}
        </p>
      ) : null}
      <p className="muted">
        {formatUtcDateTime(data.from_batch.as_of)} → {formatUtcDateTime(data.to_batch.as_of)}.
        Static {formatSigned(data.delta_static, 1)}, active {formatSigned(data.delta_active, 1)}.
      </p>
      <p className="why-basis">{basisWords(data.confidence, data.source_count)}</p>
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
