import type { enDeliverySettings } from '../en/delivery-settings.js';

export const arDeliverySettings: Record<keyof typeof enDeliverySettings, string> = {
  panel: 'إعدادات الإرسال',
  heading: 'إعدادات الإرسال الخاصة بك',
  form: 'إعدادات الإرسال الخاصة بك',
  emailTo: 'يُرسل البريد الإلكتروني إلى',
  noAddress: 'لا يوجد عنوان معروف لحساب تسجيل دخولك',
  sendEmail: 'أرسل إليّ بريدًا إلكترونيًا',
  digest: 'الملخص اليومي',
  none: 'لا شيء',
  timeZone: 'المنطقة الزمنية (IANA، مثل Asia/Riyadh)',
  quiet: 'ساعات الهدوء (لا يصلني حينها إلا الارتفاع إلى أعلى مستوى)',
  from: 'من',
  until: 'حتى',
  saved: 'تم الحفظ.',
  save: 'حفظ الإعدادات',
};
