/** The ten risk categories the API documents, in its own order. */
export const CATEGORY_NAMES = [
  'security',
  'political',
  'civil_unrest',
  'crime',
  'economic',
  'regulatory',
  'infrastructure',
  'cyber',
  'health',
  'advisory',
] as const;
export type CategoryName = (typeof CATEGORY_NAMES)[number];
