import { humanise } from './format';
import { t } from './i18n';

/** The API's roles in plain words: "locus" and "actor" meant nothing to new users. */
const ROLE_WORDS: Record<string, 'country.roleLocus' | 'country.roleActor'> = {
  locus: 'country.roleLocus',
  actor: 'country.roleActor',
};

/** "Happened here" for `locus`; an unknown role as the API names it. */
export function roleLabel(role: string): string {
  const key = ROLE_WORDS[role];
  return key ? t(key) : humanise(role);
}

/** For the filter's options: the plain words with the API's term after them. */
export function roleOption(role: string): string {
  const key = ROLE_WORDS[role];
  return key ? `${t(key)} (${role})` : humanise(role);
}
