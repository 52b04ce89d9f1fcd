import type { enLatestChange } from '../en/latest-change.js';

export const frLatestChange: Record<keyof typeof enLatestChange, string> = {
  methodCaveat:
    'La méthode du fournisseur est passée de {{from}} à {{to}} le {{date}} : non comparable. ',
  active: 'Actif {{change}}',
  risk: 'Risque {{change}}',
  notReported: 'Variation non communiquée',
  tierChange: ' (niveau {{from}} → {{to}})',
  noCategory: ' : aucune catégorie n’a bougé de 0,1 ou plus.',
  categoriesLead: ' : ',
  join: ', ',
};
