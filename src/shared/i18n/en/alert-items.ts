/**
 * The alerts themselves in English (issue 34): each alert's reason by its kind (the same phrasing
 * as the e-mails and webhooks, shared/i18n/outputs `why`), its line, the team's acknowledgement
 * and the form that gives one. An English page shows the reason the evaluator stored, word for
 * word, as the e-mails do; these say it in the other languages. The inbox's filters and buttons
 * are in the shell's `alerts` section.
 */
export const enAlertItems = {
  batch: ' · batch {{time}} · ',
  listCountries: 'Countries of the list',
  active: 'Active {{delta}} ({{before}} → {{after}}) since the previous batch',
  activeSince: 'Active {{delta}} ({{before}} → {{after}}) since the batch of {{time}}',
  tier: 'Tier {{before}} → {{after}}',
  risk: 'Risk {{before}} → {{after}}',
  team: 'Team index {{before}} → {{after}}',
  breaking: 'Breaking event:',
  method: 'The provider changed its scoring method',
  override: 'Our tier override ended',
  about: ': {{country}}',
  noImpact: 'No impact',
  someImpact: 'Some impact',
  significantImpact: 'Significant impact',
  duplicate: 'Duplicate',
  falsePositive: 'False positive',
  ackBy: ' · acknowledged by',
  ackAt: 'at {{time}}',
  ackChanged: ' (changed {{n}}×)',
  ackForm: 'Acknowledge: {{country}}',
  note: 'Note (optional)',
  saveChange: 'Save change',
  cancel: 'Cancel',
  metaUnread: 'the unread alert count',
  metaAlerts: 'the alerts',
  metaAcks: 'the acknowledgement history',
  metaLists: 'the watchlists',
} as const;
