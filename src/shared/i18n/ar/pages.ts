import type { enPages } from '../en/pages.js';

export const arPages: Record<keyof typeof enPages, string> = {
  overview: 'النظرة العامة',
  overviewOf: 'النظرة العامة: {{tiers}}',
  panelMoved: 'التغيرات',
  overviewHeading: 'نظرة عامة على المخاطر العالمية',
  notFound: 'الصفحة غير موجودة',
  noPageAt: 'لا توجد صفحة على هذا العنوان:',
  backToOverview: 'العودة إلى النظرة العامة',
  wentWrong: 'حدث خطأ ما',
  couldNotShow: 'تعذّر عرض هذه الصفحة',
  unknownError: 'خطأ غير معروف',
  reload: 'إعادة تحميل الصفحة',
  goToOverview: 'الانتقال إلى النظرة العامة',
};
