import type { enCountryPage } from '../en/country-page.js';

export const arCountryPage: Record<keyof typeof enCountryPage, string> = {
  notThreeLetters: '«{{code}}» ليس رمز ISO 3166 من ثلاثة أحرف مثل UKR أو BRA.',
  notACode: '«{{iso}}» ليس رمز بلد',
  notACodeText:
    '{{iso}} ليس رمز بلد وفق ISO 3166، ولا يوجد في البيانات بلد بهذا الرمز. تحقق من الرابط، أو ابحث عن اسم البلد من النظرة العامة.',
  noCurrentData: '{{name}}: لا توجد بيانات حالية',
  notInData: '{{name}} ليس في البيانات الحالية (خطر أساسي منخفض أو لا أخبار حديثة).',
  serviceDown:
    'يتعذّر الآن الوصول إلى خدمة البيانات، ولم يُحمَّل {{name}} من قبل. في انتظار ردّ خادم اللوحة…',
  loading: 'جارٍ تحميل {{name}}',
  dataOf: 'بيانات {{name}}',
  panelTrend: 'الاتجاه',
  panelCategoryHistory: 'سجل الفئات',
  panelArchive: 'أرشيف الأحداث',
  panelSummary: 'ملخّص البلد',
  panelLocator: 'خريطة الموقع',
  panelCategories: 'مخطط الفئات',
  panelEvents: 'موجز الأحداث',
  panelSites: 'مواقعنا هنا',
  lowConfidence:
    'الخطر مرتفع لكن الثقة منخفضة ({{confidence}} من 100): تستند الدرجة إلى مصادر قليلة أو ضعيفة. اقرأ الأحداث أدناه قبل التصرف.',
  teamAbove: 'الخطر أعلاه هو مؤشر الفريق',
  teamAboveNamed: 'الخطر أعلاه هو مؤشر الفريق «{{name}}»',
  tierIsOverride: '؛ ومستواه هو تعديلنا',
  insteadOf: 'بدلًا من مستوى المزوّد',
  because: '، لأن «{{reason}}».',
  setBy: 'حدّده {{who}}؛ وينتهي في',
};
