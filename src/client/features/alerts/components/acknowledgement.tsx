import { useId, useState } from 'react';
import {
  ACK_NOTE_MAX,
  DISPOSITIONS,
  type Disposition,
  type TriagedAlert,
} from '../../../../shared/alert-triage-api';
import { useAcknowledgeAlert } from '../api/alert-mutations';
import { t } from '../../../lib/i18n';
import { utcMinute } from '../../../lib/ltr-text';
import { dispositionLabel } from '../utils/disposition-label';

/** Who acknowledged the alert for the team, when, how they judged it, and their note. */
export function AcknowledgementLine({ alert }: { alert: TriagedAlert }) {
  const ack = alert.acknowledgement;
  if (ack === null) return <p className="ack-line is-open">{t('alerts.unacknowledged')}</p>;
  return (
    <div className="ack-line">
      <p>
        <strong className={`disposition disposition-${ack.disposition}`}>
          {dispositionLabel(ack.disposition)}
        </strong>
        {t('alertItems.ackBy')}{' '}
        <span className="ack-by" translate="no" dir="auto">
          {ack.by}
        </span>{' '}
        {t('alertItems.ackAt', { time: utcMinute(ack.at) })}
        {ack.revision > 1 ? t('alertItems.ackChanged', { n: ack.revision - 1 }) : ''}
      </p>
      {/* The person's own words, as they wrote them. */}
      {ack.note ? (
        <p className="ack-note" translate="no" dir="auto">
          {ack.note}
        </p>
      ) : null}
    </div>
  );
}

/**
 * Acknowledge (or change the acknowledgement of) one alert: a disposition and an optional note.
 * The change is made against the revision on screen; when someone else decided first, the
 * server's words are shown and the inbox reloads with theirs.
 */
export function AcknowledgeForm({ alert, onDone }: { alert: TriagedAlert; onDone: () => void }) {
  const current = alert.acknowledgement;
  const [disposition, setDisposition] = useState<Disposition | ''>(current?.disposition ?? '');
  const [note, setNote] = useState(current?.note ?? '');
  const acknowledge = useAcknowledgeAlert(alert.id);
  const id = useId();
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (disposition === '') return;
    acknowledge.mutate(
      {
        disposition,
        note: note.trim() === '' ? undefined : note,
        replaces: current?.revision,
      },
      { onSuccess: onDone },
    );
  };
  return (
    <form
      className="ack-form"
      onSubmit={submit}
      aria-label={t('alertItems.ackForm', { country: alert.country })}
    >
      <fieldset>
        <legend>{t('alerts.disposition')}</legend>
        {DISPOSITIONS.map((d) => (
          <label key={d} className="ack-choice">
            <input
              type="radio"
              name={`${id}-disposition`}
              value={d}
              checked={disposition === d}
              onChange={() => setDisposition(d)}
            />
            {dispositionLabel(d)}
          </label>
        ))}
      </fieldset>
      <label htmlFor={`${id}-note`}>{t('alertItems.note')}</label>
      <textarea
        id={`${id}-note`}
        value={note}
        maxLength={ACK_NOTE_MAX}
        rows={2}
        onChange={(e) => setNote(e.target.value)}
      />
      {acknowledge.isError ? <p role="alert">{acknowledge.error.message}</p> : null}
      <div className="form-actions">
        <button type="submit" disabled={disposition === '' || acknowledge.isPending}>
          {current ? t('alertItems.saveChange') : t('alerts.acknowledge')}
        </button>
        <button type="button" className="link-button" onClick={onDone}>
          {t('alertItems.cancel')}
        </button>
      </div>
    </form>
  );
}
