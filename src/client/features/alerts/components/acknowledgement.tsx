import { useId, useState } from 'react';
import {
  ACK_NOTE_MAX,
  DISPOSITIONS,
  DISPOSITION_LABELS,
  type Disposition,
  type TriagedAlert,
} from '../../../../shared/alert-triage-api';
import { useAcknowledgeAlert } from '../api/alert-mutations';

function when(iso: string): string {
  return `${iso.slice(0, 16).replace('T', ' ')} UTC`;
}

/** Who acknowledged the alert for the team, when, how they judged it, and their note. */
export function AcknowledgementLine({ alert }: { alert: TriagedAlert }) {
  const ack = alert.acknowledgement;
  if (ack === null) return <p className="ack-line is-open">Not acknowledged</p>;
  return (
    <div className="ack-line">
      <p>
        <strong className={`disposition disposition-${ack.disposition}`}>
          {DISPOSITION_LABELS[ack.disposition]}
        </strong>{' '}
        · acknowledged by <span className="ack-by">{ack.by}</span> at {when(ack.at)}
        {ack.revision > 1 ? ` (changed ${ack.revision - 1}×)` : ''}
      </p>
      {ack.note ? <p className="ack-note">{ack.note}</p> : null}
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
    <form className="ack-form" onSubmit={submit} aria-label={`Acknowledge: ${alert.country}`}>
      <fieldset>
        <legend>Disposition</legend>
        {DISPOSITIONS.map((d) => (
          <label key={d} className="ack-choice">
            <input
              type="radio"
              name={`${id}-disposition`}
              value={d}
              checked={disposition === d}
              onChange={() => setDisposition(d)}
            />
            {DISPOSITION_LABELS[d]}
          </label>
        ))}
      </fieldset>
      <label htmlFor={`${id}-note`}>Note (optional)</label>
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
          {current ? 'Save change' : 'Acknowledge'}
        </button>
        <button type="button" className="link-button" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}
