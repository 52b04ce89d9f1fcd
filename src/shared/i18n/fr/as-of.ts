import type { enAsOf } from '../en/as-of.js';

export const frAsOf: Record<keyof typeof enAsOf, string> = {
  shown: 'Lot affiché',
  viewing: 'Affichage du lot du {{date}}',
  notLatest: ', pas des dernières données.',
  noneAtOrBefore: 'Aucun lot n’a été enregistré au {{date}} ou avant.',
  viewingPast: 'Affichage d’un lot passé ({{date}}).',
  backToLatest: 'Revenir aux dernières données',
  openPast: 'Ouvrir un lot passé',
  dayLabel: 'Lot d’un jour (UTC)',
  open: 'Ouvrir',
  weekAgo: 'Il y a une semaine',
  monthAgo: 'Il y a un mois',
  loadingBatches: 'Chargement des lots enregistrés…',
  batches: 'Les lots enregistrés',
  noneYet: 'Aucun lot n’a encore été enregistré.',
  batch: 'Lot',
  sliderValue: '{{date}}, lot {{n}} sur {{total}}',
  loadingOlder: 'Chargement des lots plus anciens…',
  older: 'Lots plus anciens',
};
