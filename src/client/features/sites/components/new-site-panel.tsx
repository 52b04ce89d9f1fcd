import { useId, useState } from 'react';
import { DEFAULT_SITE_ALERT } from '../../../../shared/sites-api';
import { useAppNavigate } from '../../../lib/app-link';
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
        <h2 id={`${id}-heading`}>New site</h2>
        <button
          type="button"
          aria-expanded={open}
          aria-controls={`${id}-form`}
          onClick={() => setOpen((was) => !was)}
        >
          {open ? 'Close the form' : 'Add a site'}
        </button>
      </div>
      <div id={`${id}-form`} hidden={!open}>
        {open ? (
          <>
            <p className="panel-sub">
              New sites get the default rule: {ruleSentence(DEFAULT_SITE_ALERT, 'office')} Change it
              on the site&apos;s page once it is stored.
            </p>
            <SiteForm
              initial={draftOf(null)}
              withRule={false}
              choices={choices}
              submitLabel="Add site"
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
