import type { enLatestChange } from '../en/latest-change.js';

export const arLatestChange: Record<keyof typeof enLatestChange, string> = {
  methodCaveat: 'غيّر المزوّد منهجيته من {{from}} إلى {{to}} في {{date}}: غير قابل للمقارنة. ',
  active: 'النشط {{change}}',
  risk: 'الخطر {{change}}',
  notReported: 'التغيّر غير مُبلَّغ عنه',
  tierChange: ' (المستوى {{from}} ← {{to}})',
  noCategory: ': لم تتحرك أي فئة بمقدار 0.1 أو أكثر.',
  categoriesLead: ': ',
  join: '، ',
};
