/**
 * What every page says when something fails or is old (issue 34): a panel's failed load or
 * drawing, the stale-data note, the provider's method caveat, the printed batch time and the
 * sparkline's words. `{{what}}` is a panel's name from its own area ("The hotspot list").
 */
export const enProblems = {
  couldNotLoad: '{{what}} could not be loaded.',
  couldNotShow: '{{what}} could not be shown.',
  tryAgain: 'Try again',
  tryAgainAt: 'Try again at {{time}} ({{relative}}).',
  plainHeldBack:
    "automatic refreshes are paused to keep this hour's last requests for pages people open",
  plainBudget: "this hour's requests to the data service are used up",
  notRefreshed: 'the data service could not be refreshed',
  notRefreshedBecause: 'the data service could not be refreshed ({{reason}})',
  refreshFailed: 'the last refresh failed ({{reason}})',
  reasonsJoin: '; ',
  staleFrom: 'Stale: data from {{date}} ({{relative}}).',
  staleSince: 'Stale since {{date}} ({{relative}}):',
  lastFetched: '{{cause}}; last fetched {{date}} ({{relative}}).',
  causeOnly: '{{cause}}.',
  lastGood: 'Showing the last good data.',
  methodChanged: 'The provider’s method changed from {{from}} to {{to}} on {{date}}',
  notComparableLead: 'Not comparable: ',
  notComparable_one: '{{changes}}: scores are not comparable across it.',
  notComparable_other: '{{changes}}: scores are not comparable across them.',
  dataOfBatch: 'Data of the batch of {{date}}',
  notEnoughHistory: '{{label}}: not enough history',
  sparklineRange: '{{label}}, from {{min}} to {{max}}',
  couldNotRefresh:
    'Could not refresh {{what}}: {{message}}. The data on screen is kept and marked stale.',
  theData: 'the data',
  offlineBatch: 'Offline: showing the {{time}} batch.',
  offlineNotKept: 'Offline: this page’s data has not been kept on this device.',
  offlineNewer: 'Newer data may exist; the page updates when the network is back.',
  status400: 'The request was not valid',
  status404: 'Not found',
  status429: 'Too many requests',
  status500: 'The dashboard server failed',
  status502: 'The data service sent an answer that could not be used',
  status503: 'The data service is unavailable',
  status504: 'The data service did not answer in time',
  statusOther: 'The server answered with status {{status}}',
  unreachable: 'The dashboard server could not be reached',
  notJson: 'The dashboard server sent an answer that is not JSON',
  unexpectedShape: 'The dashboard server sent data in an unexpected shape',
} as const;
