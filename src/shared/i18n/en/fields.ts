/**
 * Form fields several screens share, in English (issue 34): the country picker (a watchlist's
 * countries, the event search's), the webhook format and the language of what a list sends.
 */
export const enFields = {
  pickerLoadError: 'The list of countries could not be loaded: {{message}}',
  pickerSingleChosen: '{{name}} is chosen: remove it to choose another country.',
  pickerFull_one: '{{chosen}} of {{count}} country: the most a list may have.',
  pickerFull_other: '{{chosen}} of {{count}} countries: the most a list may have.',
  pickerSingleEmpty: 'No country chosen. Type a name, a code or a common name; Enter chooses it.',
  pickerEmpty_one:
    '{{chosen}} of {{count}} country. Type a name, a code or a common name; Enter adds it.',
  pickerEmpty_other:
    '{{chosen}} of {{count}} countries. Type a name, a code or a common name; Enter adds it.',
  pickerLoading: 'Loading countries…',
  pickerNoMatch: 'No country matches “{{text}}”.',
  pickerMatches_one: '{{count}} country matches: ↓ to choose, Enter to add.',
  pickerMatches_other: '{{count}} countries match: ↓ to choose, Enter to add.',
  pickerChosen: 'Chosen countries ({{n}})',
  pickerRemove: 'Remove {{name}}',
  outputLanguage: 'Language of e-mails and webhooks',
  outputLanguageHint: 'Codes, scores and times in webhook payloads stay as they are.',
  webhookFormat: 'Webhook format',
  formatStandard: 'JSON (Standard Webhooks)',
  formatStandardHint: 'Signed JSON with the documented payload, for your own receiver.',
  formatSlack: 'Slack',
  formatSlackHint: 'A Slack incoming webhook: one line of text per alert.',
  formatTeams: 'Microsoft Teams (Workflows)',
  formatTeamsHint: 'A Teams Workflows webhook: an Adaptive Card per alert.',
} as const;
