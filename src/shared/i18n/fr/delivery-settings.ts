import type { enDeliverySettings } from '../en/delivery-settings.js';

export const frDeliverySettings: Record<keyof typeof enDeliverySettings, string> = {
  panel: 'Paramètres d’envoi',
  heading: 'Vos paramètres d’envoi',
  form: 'Vos paramètres d’envoi',
  emailTo: 'Les e-mails sont envoyés à',
  noAddress: 'aucune adresse connue pour votre connexion',
  sendEmail: 'M’envoyer des e-mails',
  digest: 'Résumé quotidien',
  none: 'Aucun',
  timeZone: 'Fuseau horaire (IANA, par ex. Europe/Paris)',
  quiet: 'Heures calmes (seule une hausse jusqu’au niveau le plus élevé me parvient alors)',
  from: 'De',
  until: 'à',
  saved: 'Enregistré.',
  save: 'Enregistrer les paramètres',
};
