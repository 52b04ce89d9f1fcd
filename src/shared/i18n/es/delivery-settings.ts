import type { enDeliverySettings } from '../en/delivery-settings.js';

export const esDeliverySettings: Record<keyof typeof enDeliverySettings, string> = {
  panel: 'Ajustes de envío',
  heading: 'Sus ajustes de envío',
  form: 'Sus ajustes de envío',
  emailTo: 'El correo se envía a',
  noAddress: 'ninguna dirección conocida para su inicio de sesión',
  sendEmail: 'Enviarme correos',
  digest: 'Resumen diario',
  none: 'Ninguno',
  timeZone: 'Zona horaria (IANA, p. ej. Europe/Madrid)',
  quiet: 'Horas de silencio (entonces solo me llega una subida al nivel más alto)',
  from: 'De',
  until: 'a',
  saved: 'Guardado.',
  save: 'Guardar los ajustes',
};
