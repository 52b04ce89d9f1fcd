import type { enBatchStatus } from '../en/batch-status.js';

export const arBatchStatus: Record<keyof typeof enBatchStatus, string> & Record<string, string> = {
  answeringErrors: 'تردّ خدمة البيانات بأخطاء.',
  unreadable: 'ترسل خدمة البيانات ردودًا لا يمكن قراءتها.',
  unreachable: 'يتعذّر الوصول إلى خدمة البيانات.',
  showingLast: 'تُعرض آخر بيانات وصلت، من {{date}} ({{relative}}).',
  noDataYet: 'لم تصل أي بيانات بعد.',
  overdue: 'تأخرت دفعة {{time}}.',
  overdueSince:
    'تأخرت دفعة {{time}} (كان موعدها {{due}})؛ البيانات المعروضة من {{date}} ({{relative}}).',
  storeFailing:
    'لا تستطيع اللوحة الحفظ في مخزنها: لن تُحفظ الدفعات الجديدة والتعديلات حتى يُصلَح ذلك.',
  quotaUsedUp:
    'نفدت حصة الطلبات الساعية لخدمة البيانات حتى {{time}} ({{relative}}). تبقى الصفحات المحمّلة متاحة؛ وقد لا تُحمَّل بلدان جديدة حتى ذلك الحين.',
  updated: 'تم التحديث إلى دفعة {{time}}.',
  updatedWithChanges_zero: 'تم التحديث إلى دفعة {{time}}: لا تغييرات في المستوى.',
  updatedWithChanges_one: 'تم التحديث إلى دفعة {{time}}: {{count}} تغيير في المستوى.',
  updatedWithChanges_two: 'تم التحديث إلى دفعة {{time}}: تغييران في المستوى.',
  updatedWithChanges_few: 'تم التحديث إلى دفعة {{time}}: {{count}} تغييرات في المستوى.',
  updatedWithChanges_many: 'تم التحديث إلى دفعة {{time}}: {{count}} تغييرًا في المستوى.',
  updatedWithChanges_other: 'تم التحديث إلى دفعة {{time}}: {{count}} تغيير في المستوى.',
};
