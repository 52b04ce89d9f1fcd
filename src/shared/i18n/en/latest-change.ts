/**
 * The country page's latest change in words (features/history/utils/drivers.ts): "Active +15.7
 * (tier High → Critical): security +22.1, civil unrest +9.0". The categories' names are the
 * upstream's and are not in here.
 */
export const enLatestChange = {
  methodCaveat:
    "The provider's method changed from {{from}} to {{to}} on {{date}}: not comparable. ",
  active: 'Active {{change}}',
  risk: 'Risk {{change}}',
  notReported: 'Change not reported',
  tierChange: ' (tier {{from}} → {{to}})',
  noCategory: ': no category moved by 0.1 or more.',
  categoriesLead: ': ',
  join: ', ',
} as const;
