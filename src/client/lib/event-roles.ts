import { humanise } from './format';

/** The API's roles in plain words: "locus" and "actor" meant nothing to new users. */
const ROLE_WORDS: Record<string, string> = {
  locus: 'Happened here',
  actor: 'Took part',
};

/** "Happened here" for `locus`; an unknown role as the API names it. */
export function roleLabel(role: string): string {
  return ROLE_WORDS[role] ?? humanise(role);
}

/** For the filter's options: the plain words with the API's term after them. */
export function roleOption(role: string): string {
  return ROLE_WORDS[role] ? `${ROLE_WORDS[role]} (${role})` : humanise(role);
}
