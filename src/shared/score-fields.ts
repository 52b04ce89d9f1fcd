/**
 * A country's score fields in the order the upstream's export lists them; tables sort by them
 * and files carry them in this order.
 */
export const SCORE_FIELDS = [
  'risk',
  'tier',
  'static',
  'active',
  'delta_active',
  'delta_headline',
] as const;
