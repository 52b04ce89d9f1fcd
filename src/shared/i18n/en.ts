/**
 * The English messages: the source every other language translates, and the shape they must
 * all have (`Catalogue`). Keys name where a message appears; `{{name}}` is filled in by i18next
 * (escaped by React, never as HTML). Plurals use i18next's `_one`/`_other` suffixes, which follow
 * CLDR's rules through Intl.PluralRules (Arabic adds `_zero`, `_two`, `_few`, `_many`).
 */
export const en = {
  shell: {
    brand: 'Global Risk Dashboard',
    navLabel: 'Exposure, watchlists, events and alerts',
    exposure: 'Exposure',
    events: 'Events',
    watchlists: 'Watchlists',
    alerts: 'Alerts',
    unread: 'unread',
    noneUnread: '(none unread)',
    auditLog: 'Audit log',
    loading: 'Loading…',
    skipToContent: 'Skip to content',
    footerData: "Data: Global Risk Index API via this dashboard's server",
    footerDemo: ' (demo data generated locally)',
    footerTimes: 'Times in UTC.',
    footerShapes: 'Shapes: Natural Earth.',
    language: 'Language',
    demoBadge: 'Demo data',
    demoBadgeTitle:
      'The numbers come from the built-in demo service, not the Global Risk Index API',
    dismiss: 'Dismiss notification',
    signedInAs: 'Signed in as',
    signOut: 'Sign out',
  },
  status: {
    label: 'Service status',
    dataService: 'Data service',
    apiQuota: 'API quota',
    ok: 'working normally',
    degraded: 'answering with errors',
    down: 'cannot be reached',
  },
  format: {
    na: 'n/a',
    justNow: 'just now',
    inUnderAMinute: 'in under a minute',
    ago: '{{amount}} ago',
    in: 'in {{amount}}',
  },
  tiers: {
    crit: 'Critical',
    high: 'High',
    mod: 'Moderate',
    low: 'Low',
    known: 'Tier label: {{tier}}',
    unknown: 'A tier label this dashboard does not know',
  },
  delta: {
    up: 'up',
    down: 'down',
    flat: 'unchanged',
    unknown: 'change not reported',
    verboseUp: 'Up {{amount}}',
    verboseDown: 'Down {{amount}}',
    verboseFlat: 'Unchanged',
    vsYesterday: 'vs yesterday',
    inActive: 'in active score',
  },
  search: {
    find: 'Find a country',
  },
  skip: {
    map: 'Skip to the map',
    hotspots: 'Skip to the hotspot table',
    allCountries: 'Skip to the country table',
    events: 'Skip to the events',
  },
  quota: {
    left: '{{remaining}} of {{limit}} left this hour',
    used: '{{used}} used in the last hour',
  },
  overview: {
    globalIndex: 'Global risk index',
    static: 'Static',
    active: 'Active',
    events24h: 'Events, last 24 h',
    dataGenerated: 'Data generated',
    nextBatchDue: 'Next batch due',
    methodology: 'Methodology',
    checksForBatch: 'Checks for a new batch',
    overdue: 'overdue',
    loadingIndex: 'Loading the global index',
  },
  country: {
    risk: 'risk',
    confidence: 'Confidence',
    confidenceOf: '{{value}} of 100',
    profile: 'Profile',
    sources: 'Sources',
    threatVectors: 'Threat vectors',
    back: '← Back to the overview',
    brief: 'Brief (print)',
    invalidIso: 'Not a valid ISO country code',
  },
  alerts: {
    markRead: 'Mark read',
    markAllRead: 'Mark all read',
    unreadCount_one: '{{count}} unread',
    unreadCount_other: '{{count}} unread',
    all: 'All',
    allLists: 'All lists',
    allCountries: 'All countries',
    any: 'Any',
    title: 'Alerts',
    panel: 'The alerts',
    inbox: 'Inbox',
    read: 'Read',
    acknowledge: 'Acknowledge',
    changeAck: 'Change acknowledgement',
    loading: 'Loading alerts',
    noneMatch: 'No alerts match these filters.',
    noneYet:
      'No alerts yet. They appear when a followed country moves (|Δ active| ≥ 10 by default) in a new batch.',
    filterLabel: 'Filter the inbox',
    state: 'State',
    watchlist: 'Watchlist',
    country: 'Country',
    disposition: 'Disposition',
    unread: 'Unread',
    unacknowledged: 'Not acknowledged',
    acknowledged: 'Acknowledged',
  },
  settings: {
    language: 'Language',
    languageHint: 'Pages open in this language unless a link names another (?lang=).',
    browserDefault: "The browser's language",
  },
} as const;

type Strings<T> = { [K in keyof T]: T[K] extends string ? string : Strings<T[K]> };
/**
 * What every language provides: each of English's keys (a missing one fails the typecheck), and
 * room for the extra plural forms a language needs (Arabic's `_few`, `_many`…).
 */
export type Catalogue = {
  [S in keyof typeof en]: Strings<(typeof en)[S]> & Record<string, string>;
};
