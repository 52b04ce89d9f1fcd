import type { Catalogue } from '../en.js';

export const frFields: Catalogue['fields'] = {
  pickerLoadError: 'La liste des pays n’a pas pu être chargée : {{message}}',
  pickerSingleChosen: '{{name}} est choisi : retirez-le pour choisir un autre pays.',
  pickerFull_one: '{{chosen}} pays sur {{count}} : le maximum pour une liste.',
  pickerFull_other: '{{chosen}} pays sur {{count}} : le maximum pour une liste.',
  pickerSingleEmpty:
    'Aucun pays choisi. Tapez un nom, un code ou un nom courant ; Entrée le choisit.',
  pickerEmpty_one:
    '{{chosen}} pays sur {{count}}. Tapez un nom, un code ou un nom courant ; Entrée l’ajoute.',
  pickerEmpty_other:
    '{{chosen}} pays sur {{count}}. Tapez un nom, un code ou un nom courant ; Entrée l’ajoute.',
  pickerLoading: 'Chargement des pays…',
  pickerNoMatch: 'Aucun pays ne correspond à « {{text}} ».',
  pickerMatches_one: '{{count}} pays correspond : ↓ pour choisir, Entrée pour ajouter.',
  pickerMatches_other: '{{count}} pays correspondent : ↓ pour choisir, Entrée pour ajouter.',
  pickerChosen: 'Pays choisis ({{n}})',
  pickerRemove: 'Retirer {{name}}',
  outputLanguage: 'Langue des e-mails et des webhooks',
  outputLanguageHint: 'Les codes, scores et heures des contenus de webhook restent tels quels.',
  webhookFormat: 'Format du webhook',
  formatStandard: 'JSON (Standard Webhooks)',
  formatStandardHint: 'JSON signé au contenu documenté, pour votre propre récepteur.',
  formatSlack: 'Slack',
  formatSlackHint: 'Un webhook entrant Slack : une ligne de texte par alerte.',
  formatTeams: 'Microsoft Teams (Workflows)',
  formatTeamsHint: 'Un webhook Teams Workflows : une carte adaptative par alerte.',
};
