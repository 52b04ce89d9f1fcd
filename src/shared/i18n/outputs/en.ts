/**
 * What the BFF sends and exports, in English (issue 34): alert e-mails, webhook texts, people's
 * daily digests and spreadsheet headers. Its own i18next namespace (`outputs`), apart from the
 * screens' catalogue, so the two grow without touching each other. The source every other
 * language translates and the shape they must have (`OutputsCatalogue`). Only words: numbers,
 * dates and country names come from `Intl` in the reader's language; codes, scores and ISO times
 * in the machine fields stay as they are.
 */
export const outputsEn = {
  alert: {
    openCountryPage: 'Open the country page',
    countryPage: 'country page',
    watchlist: 'Watchlist',
    batch: 'Batch',
    context: 'watchlist “{{list}}”, batch {{batch}}',
    contextWithId: 'watchlist “{{list}}”, batch {{batch}}, batch id {{id}}',
    testTitle: 'Test message from the Global Risk Dashboard',
    testContext: 'watchlist “{{list}}”',
    testText: 'Alerts of the watchlist “{{list}}” will arrive here.',
    mailSubject_one: '{{count}} alert for "{{list}}" (batch {{batch}})',
    mailSubject_other: '{{count}} alerts for "{{list}}" (batch {{batch}})',
    mailIntro: 'Watchlist “{{list}}”, batch of {{batch}}:',
    mailIntroWithId: 'Watchlist “{{list}}”, batch of {{batch}}, batch id {{id}}:',
    signature: 'Global Risk Dashboard',
    site: '{{name}} (ref {{ref}}, site {{id}})',
    people_one: '{{shown}} people',
    people_other: '{{shown}} people',
    moreSites_one: 'and {{shown}} more site',
    moreSites_other: 'and {{shown}} more sites',
  },
  /** Each alert's sentence in words, from its kind and numbers (`message` in English is stored). */
  why: {
    active: 'Active {{delta}} ({{before}} → {{after}}) since the previous batch',
    activeSince: 'Active {{delta}} ({{before}} → {{after}}) since the batch of {{time}}',
    tier: 'Tier {{before}} → {{after}}',
    risk: 'Risk {{before}} → {{after}}',
    team: 'Team index {{before}} → {{after}}',
    breaking: 'Breaking event',
    method: 'The provider changed its scoring method',
    override: 'Our tier override ended',
  },
  digest: {
    subjectNone: 'Daily digest {{day}}: no new alerts',
    subject_one: 'Daily digest {{day}}: {{shown}} alert',
    subject_other: 'Daily digest {{day}}: {{shown}} alerts',
    intro: 'Alerts of the 24 hours before {{day}} {{hour}} ({{zone}}):',
    none: 'No new alerts.',
    footer: 'Global Risk Dashboard · change or stop this digest in your settings',
  },
  /** Spreadsheet header cells (the header row only: the cells stay machine-readable). */
  sheet: {
    rank: 'Rank',
    country: 'Country',
    iso: 'ISO code',
    risk: 'Risk (0–100)',
    tier: 'Tier',
    static: 'Static score',
    active: 'Active score',
    recordedChange: 'Change in risk score since the previous batch recorded here',
    providerHeadlineChange:
      "Change in headline score, the provider's own figure (period not stated)",
    providerActiveChange: "Change in active score, the provider's own figure (period not stated)",
    confidence: 'Confidence (0–100)',
    profile: 'Profile',
    threatVectors: 'Threat vectors',
    sources: 'Sources',
    generated: 'Data generated (UTC)',
    batchId: 'Batch id',
    method: 'Methodology version',
    category: 'Category',
    categoryScore: 'Category score',
    categoryStatic: 'Category static part',
    categoryActive: 'Category active part',
    categoryWeight: 'Category weight',
    notes: 'Our notes',
    // Our sites' spreadsheet (issue 20).
    siteRef: 'Ref',
    siteName: 'Name',
    siteKind: 'Kind',
    latitude: 'Latitude',
    longitude: 'Longitude',
    placedBy: 'Placed by',
    people: 'People',
    value: 'Value',
    currency: 'Currency',
    tags: 'Tags',
    tripFrom: 'Trip from',
    tripTo: 'Trip to',
    siteActiveChange: 'Change in active score since the previous batch',
    // The team view's spreadsheet (issue 31).
    teamRank: 'Rank by team index',
    teamIndex: 'Team index (0–100)',
    teamTier: 'Team tier',
    teamTierFrom: 'Team tier from',
    overrideReason: 'Override reason',
    overrideExpires: 'Override expires (UTC)',
    overrideSetBy: 'Override set by',
    providerRisk: 'Provider risk (0–100)',
    providerTier: 'Provider tier',
    teamWeights: 'Team weights',
    // The event search's spreadsheet (issue 22).
    time: 'Time (UTC)',
    headline: 'Headline',
    countries: 'Countries',
    isoCodes: 'ISO codes',
    source: 'Source',
    link: 'Link',
    eventRole: 'Role',
    breaking: 'Breaking',
    firstRecorded: 'First recorded (UTC)',
    // The audit log's spreadsheet (issue 33).
    whatHappened: 'What happened',
    who: 'Who',
    email: 'E-mail',
    subject: 'Subject',
    signedInBy: 'Signed in by',
    personRole: 'Role',
    address: 'Address',
    action: 'Action',
    object: 'Object',
    answerStatus: 'Answer (HTTP status)',
    refusedBecause: 'Refused because',
    beforeJson: 'Before (JSON)',
    afterJson: 'After (JSON)',
  },
};

type Strings<T> = { [K in keyof T]: T[K] extends string ? string : Strings<T[K]> };
/**
 * What every language provides: each of English's keys (a missing one fails the typecheck), and
 * room for the extra plural forms a language needs (Arabic's `_zero`, `_two`, `_few`, `_many`).
 */
export type OutputsCatalogue = {
  [S in keyof typeof outputsEn]: Strings<(typeof outputsEn)[S]> & Record<string, string>;
};
