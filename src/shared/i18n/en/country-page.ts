/** The country page's own messages (issue 34): its failures and the names of its panels. */
export const enCountryPage = {
  notThreeLetters: '“{{code}}” is not a three-letter ISO 3166 code such as UKR or BRA.',
  notACode: '“{{iso}}” is not a country code',
  notACodeText:
    "{{iso}} is not an ISO 3166 country code, and the data has no country under it. Check the link, or search the overview for the country's name.",
  noCurrentData: '{{name}}: no current data',
  notInData: '{{name}} is not in the current data (low baseline or no recent news).',
  serviceDown:
    "The data service cannot be reached right now, and {{name}} has not been loaded before. Waiting for the dashboard server's answer…",
  loading: 'Loading {{name}}',
  dataOf: 'The data of {{name}}',
  panelTrend: 'The trend',
  panelCategoryHistory: 'The category history',
  panelArchive: 'The event archive',
  panelSummary: 'The country summary',
  panelLocator: 'The location map',
  panelCategories: 'The categories chart',
  panelEvents: 'The event feed',
  panelSites: 'Our sites here',
  lowConfidence:
    'Risk is high but confidence is low ({{confidence}} of 100): the score rests on few or weak sources. Read the events below before acting on it.',
  teamAbove: 'Risk above is the team index',
  teamAboveNamed: 'Risk above is the team index “{{name}}”',
  tierIsOverride: '; its tier is our override',
  insteadOf: 'instead of the provider’s',
  because: ', because “{{reason}}”.',
  setBy: 'Set by {{who}}; ends',
} as const;
