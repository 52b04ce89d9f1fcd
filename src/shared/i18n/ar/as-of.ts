import type { enAsOf } from '../en/as-of.js';

export const arAsOf: Record<keyof typeof enAsOf, string> = {
  shown: 'الدفعة المعروضة',
  viewing: 'تعرض دفعة {{date}}',
  notLatest: '، وليس أحدث البيانات.',
  noneAtOrBefore: 'لم تُسجَّل أي دفعة في {{date}} أو قبله.',
  viewingPast: 'تعرض دفعة سابقة ({{date}}).',
  backToLatest: 'العودة إلى الأحدث',
  openPast: 'فتح دفعة سابقة',
  dayLabel: 'دفعة يوم (UTC)',
  open: 'فتح',
  weekAgo: 'قبل أسبوع',
  monthAgo: 'قبل شهر',
  loadingBatches: 'جارٍ تحميل الدفعات المسجّلة…',
  batches: 'الدفعات المسجّلة',
  noneYet: 'لم تُسجَّل أي دفعة بعد.',
  batch: 'الدفعة',
  sliderValue: '{{date}}، الدفعة {{n}} من {{total}}',
  loadingOlder: 'جارٍ تحميل الدفعات الأقدم…',
  older: 'دفعات أقدم',
};
