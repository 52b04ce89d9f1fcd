/**
 * What each query of the page fetches, in words (issue 34): a failed refresh's toast names it
 * ("Could not refresh the hotspot list: …"). Set where each query is defined, in the page's
 * language at that render.
 */
export const enQueries = {
  map: 'the map',
  feedTokens: 'the feed tokens',
  embeds: 'the embeds',
  auditLog: 'the audit log',
  sessions: 'the sessions',
  noteSearch: 'the notes that match',
  hotspots: 'the hotspot list',
  site: 'the site',
  siteDelivery: 'where site alerts go',
  countryAlerts: 'the alerts of {{iso}}',
  deliverySettings: 'your delivery settings',
  countryNames: 'the list of countries',
  batches: 'the recorded batches',
  sites: 'our sites',
  shapes: 'the map shapes',
  sitesLayer: 'the sites layer',
  status: 'the service status',
  exposure: 'the exposure of our sites',
  countries: 'the country list',
  country: 'the data of {{iso}}',
  globalHistory: 'the history of the global index',
  countryHistory: 'the history of {{iso}}',
  changes: 'what changed',
  explain: 'why {{iso}} moved',
  batchShown: 'the batch shown',
  notes: 'the notes on {{iso}}',
  aliases: 'the list of country names',
  me: 'who is signed in',
} as const;
