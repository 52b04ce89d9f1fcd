import type { CategoryName } from '../shared/categories.js';

/** The demo upstream's fixed vocabularies (the document leaves these values open). */

export const METHODOLOGY_VERSION = 'ggri-m 3.2';

/**
 * Countries deliberately absent from every batch ("low baseline, no recent news"): the country
 * endpoint answers 404 for them although they are on the map.
 */
export const ABSENT_ISOS: readonly string[] = ['ATA', 'ATF', 'BTN', 'FLK', 'GRL', 'ISL'];

/**
 * Baseline risk of well-known hotspots, so the top of the list looks like the news. Every other
 * country gets a seeded baseline from a skewed distribution (most low, fewer moderate).
 */
export const HOTSPOT_BASELINES: Readonly<Record<string, number>> = {
  UKR: 86,
  SDN: 85,
  PSE: 84,
  MMR: 80,
  SYR: 79,
  YEM: 79,
  SSD: 77,
  AFG: 77,
  HTI: 76,
  COD: 76,
  SOM: 75,
  RUS: 72,
  ISR: 71,
  LBY: 70,
  MLI: 70,
  BFA: 69,
  NER: 67,
  IRN: 66,
  IRQ: 65,
  VEN: 64,
  ETH: 64,
  NGA: 63,
  CAF: 63,
  PRK: 62,
  LBN: 61,
  PAK: 60,
  TCD: 58,
  COL: 56,
  MEX: 56,
  MOZ: 55,
  CMR: 54,
  ECU: 53,
  SRB: 48,
  EGY: 52,
  BLR: 50,
  TWN: 47,
  PHL: 49,
  KEN: 48,
  TUR: 47,
  ARM: 46,
  AZE: 46,
  BGD: 46,
  GEO: 44,
  LKA: 42,
  ZWE: 45,
  ERI: 50,
  BDI: 52,
  GTM: 47,
  HND: 49,
  SLV: 42,
};

/** Base weights of the ten categories (per mille); each country's weights vary around these. */
export const BASE_WEIGHTS: Readonly<Record<CategoryName, number>> = {
  security: 180,
  political: 140,
  civil_unrest: 110,
  crime: 100,
  economic: 120,
  regulatory: 70,
  infrastructure: 80,
  cyber: 60,
  health: 60,
  advisory: 80,
};

/** Risk profile labels, chosen by the country's dominant category. */
export const PROFILE_BY_CATEGORY: Readonly<Record<CategoryName, string>> = {
  security: 'armed_conflict',
  political: 'political_instability',
  civil_unrest: 'civil_unrest',
  crime: 'criminal_violence',
  economic: 'economic_distress',
  regulatory: 'regulatory_pressure',
  infrastructure: 'infrastructure_fragility',
  cyber: 'cyber_exposure',
  health: 'public_health_emergency',
  advisory: 'travel_restrictions',
};
/** Profile of countries whose risk is low overall, whatever dominates. */
export const STABLE_PROFILE = 'stable_baseline';

export const THREAT_VECTORS_BY_CATEGORY: Readonly<Record<CategoryName, readonly string[]>> = {
  security: ['armed_conflict', 'terrorism', 'border_tensions', 'air_strikes'],
  political: ['coup_risk', 'election_disputes', 'sanctions'],
  civil_unrest: ['protests', 'strikes', 'communal_violence'],
  crime: ['organised_crime', 'kidnapping', 'piracy'],
  economic: ['currency_crisis', 'sovereign_default', 'inflation'],
  regulatory: ['expropriation', 'capital_controls', 'sanctions'],
  infrastructure: ['power_outages', 'supply_chain_disruption', 'natural_hazards'],
  cyber: ['cyber_attacks', 'internet_shutdowns'],
  health: ['disease_outbreak', 'food_insecurity'],
  advisory: ['travel_advisories', 'evacuation_orders'],
};

export interface HeadlineTemplate {
  category: CategoryName;
  /** Uses {locus} and, when `actor` is true, {actor}. */
  text: string;
  actor: boolean;
  /** A "breaking" kind of story (still only flagged when recent). */
  urgent: boolean;
}

function template(category: CategoryName, text: string, urgent = false): HeadlineTemplate {
  return { category, text, actor: text.includes('{actor}'), urgent };
}

// Some headlines hold quotes, ampersands and commas on purpose: they must survive CSV quoting,
// JSON and HTML escaping unchanged.
export const HEADLINE_TEMPLATES: readonly HeadlineTemplate[] = [
  template('security', 'Shelling reported near {locus} border towns, residents flee', true),
  template('security', '{actor} accuses {locus} of drone incursion, vows response', true),
  template('security', 'Ceasefire talks between {locus} and {actor} stall over prisoner swap'),
  template('security', 'Militants attack army post in northern {locus}; casualties feared', true),
  template('security', '{actor} deploys additional troops along {locus} frontier'),
  template('political', '{locus} parliament dissolved as coalition collapses'),
  template('political', 'Opposition leader detained in {locus}, say rights groups'),
  template('political', '{locus} president calls "national dialogue" after disputed vote'),
  template('political', '{actor} recalls ambassador from {locus} amid diplomatic row'),
  template('political', '{actor} imposes new sanctions on {locus} officials & state firms'),
  template('civil_unrest', 'Thousands protest in {locus} over fuel prices', true),
  template('civil_unrest', 'General strike paralyses {locus} ports, rail & public transport'),
  template('civil_unrest', 'Police use tear gas on demonstrators in {locus} capital', true),
  template('crime', 'Cartel violence flares in {locus}; curfew imposed in two provinces'),
  template('crime', 'Kidnapping of foreign workers reported in {locus}'),
  template('crime', '{locus} and {actor} launch joint operation against smuggling networks'),
  template('economic', '{locus} currency slides to record low, central bank intervenes'),
  template('economic', 'IMF and {locus} reach staff-level agreement on "bridge" loan'),
  template('economic', '{locus} inflation tops forecasts, food prices up sharply'),
  template('economic', '{actor} halts grain shipments to {locus}, citing payment arrears'),
  template('regulatory', '{locus} orders review of foreign mining licences'),
  template('regulatory', 'New capital controls in {locus} hit importers, banks'),
  template('infrastructure', 'Nationwide blackout hits {locus} for second day'),
  template('infrastructure', 'Floods cut key highway & rail links in {locus}', true),
  template('infrastructure', 'Earthquake of magnitude 6.1 strikes {locus}, damage assessed', true),
  template('cyber', '{locus} government sites down after "coordinated" cyberattack', true),
  template('cyber', '{locus} blames {actor}-linked hackers for telecoms breach'),
  template('cyber', 'Internet shutdown reported across {locus} ahead of rally'),
  template('health', 'Cholera outbreak spreads in {locus}, WHO says'),
  template('health', '{locus} declares health emergency as cases rise', true),
  template('advisory', '{actor} raises travel advisory for {locus} to "do not travel"'),
  template('advisory', 'Embassies in {locus} urge citizens to shelter in place', true),
];
