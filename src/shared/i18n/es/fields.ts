import type { Catalogue } from '../en.js';

export const esFields: Catalogue['fields'] = {
  pickerLoadError: 'No se pudo cargar la lista de países: {{message}}',
  pickerSingleChosen: '{{name}} está elegido: quítelo para elegir otro país.',
  pickerFull_one: '{{chosen}} de {{count}} país: el máximo para una lista.',
  pickerFull_other: '{{chosen}} de {{count}} países: el máximo para una lista.',
  pickerSingleEmpty:
    'Ningún país elegido. Escriba un nombre, un código o un nombre común; Intro lo elige.',
  pickerEmpty_one:
    '{{chosen}} de {{count}} país. Escriba un nombre, un código o un nombre común; Intro lo añade.',
  pickerEmpty_other:
    '{{chosen}} de {{count}} países. Escriba un nombre, un código o un nombre común; Intro lo añade.',
  pickerLoading: 'Cargando países…',
  pickerNoMatch: 'Ningún país coincide con «{{text}}».',
  pickerMatches_one: '{{count}} país coincide: ↓ para elegir, Intro para añadir.',
  pickerMatches_other: '{{count}} países coinciden: ↓ para elegir, Intro para añadir.',
  pickerChosen: 'Países elegidos ({{n}})',
  pickerRemove: 'Quitar {{name}}',
  outputLanguage: 'Idioma de los correos y webhooks',
  outputLanguageHint:
    'Los códigos, puntuaciones y horas del contenido de los webhooks se quedan como están.',
  webhookFormat: 'Formato del webhook',
  formatStandard: 'JSON (Standard Webhooks)',
  formatStandardHint: 'JSON firmado con el contenido documentado, para su propio receptor.',
  formatSlack: 'Slack',
  formatSlackHint: 'Un webhook entrante de Slack: una línea de texto por alerta.',
  formatTeams: 'Microsoft Teams (Workflows)',
  formatTeamsHint: 'Un webhook de Teams Workflows: una tarjeta adaptable por alerta.',
};
