/** The "Find a country" palette (issue 34): its field, lists, live status and keys. */
export const enPalette = {
  field: 'Country name or code',
  countries: 'Matching countries',
  notes: 'Matching notes',
  move: 'move',
  open: 'open',
  close: 'close',
  loadError: 'The list of countries could not be loaded: {{message}}',
  hint: 'Type a name, an ISO code or a common name such as UK or Burma.',
  noMatch: 'No country matches “{{text}}”.',
  matches_one: '{{count}} country matches.',
  matches_other: '{{count}} countries match.',
  noteMatches_one: '{{count}} note matches.',
  noteMatches_other: '{{count}} notes match.',
  noteOn: 'Note on {{name}}',
  notInData: 'not in the current data',
  matchesName: 'matches “{{name}}”',
} as const;
