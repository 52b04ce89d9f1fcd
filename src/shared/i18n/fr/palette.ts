import type { enPalette } from '../en/palette.js';

export const frPalette: Record<keyof typeof enPalette, string> = {
  field: 'Nom ou code du pays',
  countries: 'Pays correspondants',
  notes: 'Notes correspondantes',
  move: 'se déplacer',
  open: 'ouvrir',
  close: 'fermer',
  loadError: 'La liste des pays n’a pas pu être chargée : {{message}}',
  hint: 'Saisissez un nom, un code ISO ou un nom courant comme UK ou Birmanie.',
  noMatch: 'Aucun pays ne correspond à « {{text}} ».',
  matches_one: '{{count}} pays correspond.',
  matches_other: '{{count}} pays correspondent.',
  noteMatches_one: '{{count}} note correspond.',
  noteMatches_other: '{{count}} notes correspondent.',
  noteOn: 'Note sur {{name}}',
  notInData: 'absent des données actuelles',
  matchesName: 'correspond à « {{name}} »',
};
