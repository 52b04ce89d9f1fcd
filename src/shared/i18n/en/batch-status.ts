/**
 * The status banner and the new-batch notice (issue 34). The BFF's own sentences for failures a
 * person can act on (a rejected key, a rate limit) are shown as it sends them.
 */
export const enBatchStatus = {
  answeringErrors: 'The data service is answering with errors.',
  unreadable: 'The data service is sending answers that cannot be read.',
  unreachable: 'The data service cannot be reached.',
  showingLast: 'Showing the last data received, from {{date}} ({{relative}}).',
  noDataYet: 'No data has been received yet.',
  overdue: 'The {{time}} batch is overdue.',
  overdueSince:
    'The {{time}} batch is overdue (due {{due}}); the data shown is from {{date}} ({{relative}}).',
  storeFailing:
    'The dashboard cannot save to its store: new batches and changes are not kept until it is fixed.',
  quotaUsedUp:
    'The hourly request quota of the data service is used up until {{time}} ({{relative}}). Pages already loaded stay available; new countries may not load until then.',
  updated: 'Updated to the {{time}} batch.',
  updatedWithChanges_one: 'Updated to the {{time}} batch: {{count}} tier change.',
  updatedWithChanges_other: 'Updated to the {{time}} batch: {{count}} tier changes.',
} as const;
