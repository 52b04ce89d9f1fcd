import type { enLatestChange } from '../en/latest-change.js';

export const esLatestChange: Record<keyof typeof enLatestChange, string> = {
  methodCaveat: 'El método del proveedor pasó de {{from}} a {{to}} el {{date}}: no comparable. ',
  active: 'Activo {{change}}',
  risk: 'Riesgo {{change}}',
  notReported: 'Cambio no informado',
  tierChange: ' (nivel {{from}} → {{to}})',
  noCategory: ': ninguna categoría se movió 0,1 o más.',
  categoriesLead: ': ',
  join: ', ',
};
