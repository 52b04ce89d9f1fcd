import type { enPalette } from '../en/palette.js';

export const esPalette: Record<keyof typeof enPalette, string> = {
  field: 'Nombre o código del país',
  countries: 'Países que coinciden',
  notes: 'Notas que coinciden',
  move: 'moverse',
  open: 'abrir',
  close: 'cerrar',
  loadError: 'No se pudo cargar la lista de países: {{message}}',
  hint: 'Escriba un nombre, un código ISO o un nombre común como UK o Birmania.',
  noMatch: 'Ningún país coincide con «{{text}}».',
  matches_one: '{{count}} país coincide.',
  matches_other: '{{count}} países coinciden.',
  noteMatches_one: '{{count}} nota coincide.',
  noteMatches_other: '{{count}} notas coinciden.',
  noteOn: 'Nota sobre {{name}}',
  notInData: 'no está en los datos actuales',
  matchesName: 'coincide con «{{name}}»',
};
