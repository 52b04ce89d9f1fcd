import { useState } from 'react';
import type { Site } from '../../../../shared/sites-api';
import { ApiError } from '../../../lib/api-client';
import { useAppNavigate } from '../../../lib/app-link';
import { t } from '../../../lib/i18n';
import { useDeleteSite, useSaveSite } from '../api/site-mutations';
import { draftOf } from '../utils/site-draft';
import { SiteForm, type CountryChoices } from './site-form';

/**
 * Editing a site on its page (offered to editors: the route leaves it out for a viewer, and the
 * BFF refuses a viewer's edit anyway). The form starts from one stored version and saves with its `If-Match`: an edit made
 * elsewhere meanwhile is reported (412), never overwritten, and the form can then start again
 * from what is stored now.
 */
export function SiteEditor({ site, choices }: { site: Site; choices: CountryChoices }) {
  const navigate = useAppNavigate();
  const [base, setBase] = useState(site);
  const [saved, setSaved] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const save = useSaveSite();
  const remove = useDeleteSite();
  const conflict = save.error instanceof ApiError && save.error.status === 412;
  const stale = base.version !== site.version;
  return (
    <section className="panel site-editor no-print" aria-labelledby="site-editor-heading">
      <h2 id="site-editor-heading">{t('sites.editHeading')}</h2>
      <SiteForm
        // A save (here, or a reload after a conflict) starts the form again from what is stored.
        key={base.version}
        initial={draftOf(base)}
        withRule
        choices={choices}
        placedIso={base.placed_by === 'given' ? null : base.iso}
        submitLabel={t('sites.save')}
        onSave={async (input) => {
          setSaved(false);
          const { data } = await save.mutateAsync({ base, input });
          setBase(data.site);
          setSaved(true);
        }}
      >
        {confirming ? (
          <span className="confirm-delete" role="group" aria-label={t('sites.deleteQuestion')}>
            <span>{t('sites.deleteConfirm', { name: base.name })}</span>
            <button
              type="button"
              className="danger"
              disabled={remove.isPending}
              onClick={() => remove.mutate(base, { onSuccess: () => void navigate('/exposure') })}
            >
              {t('sites.yesDelete')}
            </button>
            <button type="button" onClick={() => setConfirming(false)}>
              {t('sites.keepIt')}
            </button>
          </span>
        ) : (
          <button type="button" className="danger" onClick={() => setConfirming(true)}>
            {t('sites.deleteSite')}
          </button>
        )}
      </SiteForm>
      {saved ? <p role="status">{t('sites.saved')}</p> : null}
      {remove.isError ? (
        <p role="alert" className="field-problem">
          {remove.error.message}
        </p>
      ) : null}
      {(conflict || (remove.error instanceof ApiError && remove.error.status === 412)) && stale ? (
        <p className="notice">
          {t('sites.changedElsewhere')}{' '}
          <button
            type="button"
            onClick={() => {
              setBase(site);
              save.reset();
              remove.reset();
            }}
          >
            {t('sites.startAgain')}
          </button>
        </p>
      ) : null}
    </section>
  );
}
