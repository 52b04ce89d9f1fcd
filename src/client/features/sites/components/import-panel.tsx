import { useId, useState, type ChangeEvent } from 'react';
import { SITES_IMPORT_MAX_BYTES, type ImportResponse } from '../../../../shared/sites-api';
import { formatInteger } from '../../../lib/format';
import { t } from '../../../lib/i18n';
import { useImportSites } from '../api/site-mutations';
import { ImportReport } from './import-report';

const MB = Math.round(SITES_IMPORT_MAX_BYTES / 1024 / 1024);

/**
 * Import sites from a spreadsheet: choose a CSV file or paste its cells, check it first (a dry
 * run stores nothing and lists what would be created, updated and rejected, with row numbers
 * and reasons), then import. Import is offered only for the text that was checked: an edit after
 * the check asks for a new one.
 */
export function ImportPanel() {
  const id = useId();
  const [text, setText] = useState('');
  const [source, setSource] = useState<string | null>(null);
  const [fileProblem, setFileProblem] = useState<string | null>(null);
  const [checked, setChecked] = useState<{ text: string; answer: ImportResponse } | null>(null);
  const [imported, setImported] = useState<ImportResponse | null>(null);
  const mutation = useImportSites();
  const current = checked !== null && checked.text === text ? checked.answer : null;
  const acceptable = current ? current.created.length + current.updated.length : 0;

  const chooseFile = (event: ChangeEvent<HTMLInputElement>) =>
    readChosenFile(event, setFileProblem, (file, content) => {
      setText(content);
      setSource(file.name);
      setImported(null);
    });
  const run = (dryRun: boolean) => {
    const sent = text;
    const onSuccess = ({ data }: { data: ImportResponse }) => {
      setChecked(dryRun ? { text: sent, answer: data } : null);
      setImported(dryRun ? null : data);
    };
    mutation.mutate({ text: sent, dryRun }, { onSuccess });
  };

  return (
    <section className="panel import-panel" aria-labelledby={`${id}-heading`}>
      <div className="panel-head">
        <h2 id={`${id}-heading`}>{t('sites.importHeading')}</h2>
        <p className="panel-sub">{t('sites.importHow')}</p>
      </div>
      <ImportInputs
        id={id}
        text={text}
        source={source}
        fileProblem={fileProblem}
        onFile={(event) => void chooseFile(event)}
        onText={(next) => {
          setText(next);
          setSource(null);
        }}
      />
      <ImportActions
        canCheck={text.trim() !== ''}
        acceptable={current ? acceptable : null}
        pending={
          mutation.isPending
            ? t(mutation.variables.dryRun ? 'sites.checking' : 'sites.importing')
            : null
        }
        run={run}
      />
      {mutation.isError ? (
        <p role="alert" className="field-problem">
          {mutation.error.message}
        </p>
      ) : null}
      {current ? <ImportReport answer={current} /> : null}
      {checked !== null && current === null && !imported ? (
        <p className="muted">{t('sites.rowsChanged')}</p>
      ) : null}
      {imported ? <ImportReport answer={imported} /> : null}
    </section>
  );
}

/** The two ways in: a file, or rows pasted into the field. */
function ImportInputs({
  id,
  text,
  source,
  fileProblem,
  onFile,
  onText,
}: {
  id: string;
  text: string;
  source: string | null;
  fileProblem: string | null;
  onFile: (event: ChangeEvent<HTMLInputElement>) => void;
  onText: (text: string) => void;
}) {
  return (
    <div className="import-inputs">
      <div className="form-field">
        <label htmlFor={`${id}-file`} className="field-label">
          {t('sites.chooseFile')}
        </label>
        <input
          id={`${id}-file`}
          type="file"
          accept=".csv,text/csv,.json,application/json"
          onChange={onFile}
        />
        {fileProblem ? (
          <p role="alert" className="field-problem">
            {fileProblem}
          </p>
        ) : null}
      </div>
      <div className="form-field">
        <label htmlFor={`${id}-text`} className="field-label">
          {t('sites.pasteRows')}
        </label>
        <textarea
          id={`${id}-text`}
          rows={6}
          spellCheck={false}
          value={text}
          onChange={(event) => onText(event.target.value)}
          placeholder={'ref;name;kind;lat;lng;people\nWAW-1;Warsaw office;office;52.23;21.01;120'}
        />
        {source ? <p className="field-hint">{t('sites.fromFile', { file: source })}</p> : null}
      </div>
    </div>
  );
}

/** Check first, then import what the check accepted; what is running meanwhile. */
function ImportActions({
  canCheck,
  acceptable,
  pending,
  run,
}: {
  canCheck: boolean;
  /** How many sites the current check accepted; null before a check of this text. */
  acceptable: number | null;
  pending: string | null;
  run: (dryRun: boolean) => void;
}) {
  return (
    <div className="form-actions">
      <button
        type="button"
        className="button"
        disabled={!canCheck || pending !== null}
        onClick={() => run(true)}
      >
        {t('sites.checkDryRun')}
      </button>
      <button
        type="button"
        className="button primary"
        disabled={acceptable === null || acceptable === 0 || pending !== null}
        onClick={() => run(false)}
      >
        {acceptable !== null
          ? t('sites.importCount', { count: acceptable, shown: formatInteger(acceptable) })
          : t('sites.import')}
      </button>
      {pending ? <span role="status">{pending}</span> : null}
    </div>
  );
}

/** A chosen file's text, or why it is not read (more than one import takes). */
async function readChosenFile(
  event: ChangeEvent<HTMLInputElement>,
  setProblem: (problem: string | null) => void,
  onRead: (file: File, content: string) => void,
): Promise<void> {
  const file = event.target.files?.[0];
  setProblem(null);
  if (!file) return;
  if (file.size > SITES_IMPORT_MAX_BYTES) {
    setProblem(t('sites.fileTooLarge', { file: file.name, mb: formatInteger(MB) }));
    return;
  }
  onRead(file, await file.text());
}
