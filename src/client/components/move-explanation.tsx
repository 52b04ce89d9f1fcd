import type { ExplainResponse } from '../../shared/explain-api';
import { formatSigned, formatUtcDateTime, humanise, na } from '../lib/format';
import { TableHead, TableRegion } from './data-table';
import { t } from '../lib/i18n';

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
      ? t('why.confidence', { value: Math.round(confidence) })
      : t('why.noConfidence');
  const src =
    typeof sources !== 'number'
      ? t('why.noSourceCount')
      : sources === 0
        ? t('why.noSources')
        : t('why.sources', { count: sources });
  const weak = (typeof confidence === 'number' && confidence < LOW_CONFIDENCE) || sources === 0;
  return t(weak ? 'why.basisWeak' : 'why.basis', { confidence: conf, sources: src });
}

const percent = (weight: number | null): string =>
  weight === null ? na() : `${Math.round(weight * 100)} %`;

/**
 * Why a country moved between two batches, in words first (the server's sentence, so the page,
 * the API and a brief say the same), then the categories that moved with their weights and
 * static/active split, then the country's events between the two batches.
 */
export function MoveExplanation({ data, name }: { data: ExplainResponse; name: string }) {
  return (
    <div className="move-explanation">
      {/* The server's sentence, in English for now (the API, briefs and e-mails say the same). */}
      <p className="why-sentence" lang="en" translate="no">
        {data.sentence}
      </p>
      {data.provider ? (
        // The team view explains our index's move; the provider's stays beside it (issue 31).
        <p className="why-provider">
          {t('country.whyProviderMove')} {data.provider.sentence}
        </p>
      ) : null}
      <p className="muted">
        {formatUtcDateTime(data.from_batch.as_of)} → {formatUtcDateTime(data.to_batch.as_of)}.
        {t('why.split', {
          static: formatSigned(data.delta_static, 1),
          active: formatSigned(data.delta_active, 1),
        })}
      </p>
      <p className="why-basis">{basisWords(data.confidence, data.source_count)}</p>
      <MovedCategories categories={data.categories} name={name} ours={Boolean(data.provider)} />
      <MoveEvents data={data} name={name} />
    </div>
  );
}

/**
 * The categories that moved, with their weights and static/active split. In the team view
 * (`ours`) the weights are our own weights' shares, and the column says so.
 */
function MovedCategories({
  categories,
  name,
  ours,
}: {
  categories: ExplainResponse['categories'];
  name: string;
  ours: boolean;
}) {
  const moved = categories.filter((c) => c.delta_score !== null && c.delta_score !== 0);
  if (moved.length === 0) return null;
  return (
    <TableRegion label={t('why.tableLabel', { name })}>
      <table className="data-table why-table">
        <caption className="visually-hidden">{t('why.caption', { name })}</caption>
        <TableHead
          columns={[
            { label: t('why.category') },
            { label: t('why.change') },
            { label: t(ours ? 'why.ourWeight' : 'why.weight') },
            { label: t('why.static') },
            { label: t('why.active') },
          ]}
        />
        <tbody>
          {moved.map((c) => (
            <tr key={c.category}>
              <th scope="row" translate="no">
                {humanise(c.category)}
              </th>
              <td className="num">{formatSigned(c.delta_score, 1)}</td>
              <td className="num">{percent(c.weight)}</td>
              <td className="num">{formatSigned(c.delta_static, 1)}</td>
              <td className="num">{formatSigned(c.delta_active, 1)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableRegion>
  );
}

/** The country's events between the two batches: the first few, and how many there were. */
function MoveEvents({ data, name }: { data: ExplainResponse; name: string }) {
  if (data.events.length === 0) return <p className="muted">{t('why.noEvents', { name })}</p>;
  const events = data.events.slice(0, EVENTS_SHOWN);
  const more = data.events.length - events.length;
  return (
    <>
      <p className="why-events-count">
        {t('why.events', { count: data.events.length, breaking: data.breaking_events })}
      </p>
      <ul className="why-events">
        {events.map((event, index) => (
          <li key={`${event.ts}-${index}`}>
            <time dateTime={event.ts}>{formatUtcDateTime(event.ts)}</time>{' '}
            {event.breaking ? (
              <span className="badge badge-breaking">{t('why.breaking')}</span>
            ) : null}{' '}
            {event.headline ? <span translate="no">{event.headline}</span> : t('why.untitled')}
            {event.source ? (
              <span className="muted" translate="no">
                {' '}
                ({event.source})
              </span>
            ) : null}
          </li>
        ))}
      </ul>
      {more > 0 ? <p className="muted">{t('why.andMore', { count: more })}</p> : null}
    </>
  );
}
