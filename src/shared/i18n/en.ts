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
