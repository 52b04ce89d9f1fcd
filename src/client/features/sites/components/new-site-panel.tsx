import { useId, useState } from 'react';
import { DEFAULT_SITE_ALERT } from '../../../../shared/sites-api';
import { useAppNavigate } from '../../../lib/app-link';
import { t } from '../../../lib/i18n';
import { useCreateSite } from '../api/site-mutations';
import { draftOf, ruleSentence } from '../utils/site-draft';
import { SiteForm, type CountryChoices } from './site-form';

/**
 * A new site, typed in (offered to editors: the route leaves it out for a viewer). It gets the default site rule, said in words; the rule
 * is adjusted on the site's page, which opens once the site is stored.
 */
export function NewSitePanel({ choices }: { choices: CountryChoices }) {
  const id = useId();
  const navigate = useAppNavigate();
  const create = useCreateSite();
  const [open, setOpen] = useState(false);
  return (
    <section className="panel new-site no-print" aria-labelledby={`${id}-heading`}>
      <div className="panel-head">
        <h2 id={`${id}-heading`}>{t('sites.newHeading')}</h2>
        <button
          type="button"
          aria-expanded={open}
          aria-controls={`${id}-form`}
          onClick={() => setOpen((was) => !was)}
        >
          {open ? t('sites.closeForm') : t('sites.addASite')}
        </button>
      </div>
      <div id={`${id}-form`} hidden={!open}>
        {open ? (
          <>
            <p className="panel-sub">
              {t('sites.defaultRule', { rule: ruleSentence(DEFAULT_SITE_ALERT, 'office') })}
            </p>
            <SiteForm
              initial={draftOf(null)}
              withRule={false}
              choices={choices}
              submitLabel={t('sites.addSite')}
              onSave={async (input) => {
                const { id: created } = await create.mutateAsync(input);
                await navigate(`/sites/${created}`);
              }}
            />
          </>
        ) : null}
      </div>
    </section>
  );
}
