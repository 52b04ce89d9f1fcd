/**
 * The demo's registry of news sources. Domains are made up (under .example) so that no link in
 * the demo data points at a real outlet; names, categories and reliability tiers are the demo's
 * own fixed vocabulary (the document leaves these values open).
 */
export interface Source {
  domain: string;
  name: string;
  category: string;
  tier: string;
  stateAffiliated: boolean;
  /** Relative share of events this source reports. */
  weight: number;
}

function source(
  domain: string,
  name: string,
  category: string,
  tier: string,
  stateAffiliated: boolean,
  weight: number,
): Source {
  return { domain, name, category, tier, stateAffiliated, weight };
}

export const SOURCES: readonly Source[] = [
  source('wire-global.example', 'Global Wire Service', 'wire', 'tier_1', false, 10),
  source('presswire.example', 'PressWire International', 'wire', 'tier_1', false, 9),
  source('dailyledger.example', 'The Daily Ledger', 'national_press', 'tier_1', false, 7),
  source('worldherald.example', 'World Herald', 'national_press', 'tier_2', false, 6),
  source('eveningpost.example', 'Evening Post', 'national_press', 'tier_2', false, 4),
  source('marketsdesk.example', 'Markets Desk', 'financial', 'tier_1', false, 5),
  source('commodity-watch.example', 'Commodity Watch', 'financial', 'tier_2', false, 3),
  source('regional-monitor.example', 'Regional Monitor', 'regional_press', 'tier_2', false, 6),
  source('sahel-observer.example', 'Sahel Observer', 'regional_press', 'tier_2', false, 3),
  source('andes-journal.example', 'Andes Journal', 'regional_press', 'tier_3', false, 2),
  source(
    'state-broadcast.example',
    'State Broadcasting Corporation',
    'broadcaster',
    'tier_2',
    true,
    4,
  ),
  source('national-news-agency.example', 'National News Agency', 'wire', 'tier_2', true, 4),
  source('citizen-channel.example', 'Citizen Channel', 'broadcaster', 'tier_3', false, 3),
  source('gov-advisories.example', 'Travel Advisory Service', 'government', 'tier_1', true, 2),
  source('health-alerts.example', 'Health Alerts Network', 'ngo', 'tier_1', false, 2),
  source('conflict-tracker.example', 'Conflict Tracker', 'research', 'tier_1', false, 4),
  source('rights-watchers.example', 'Rights Watchers', 'ngo', 'tier_2', false, 2),
  source('cyber-brief.example', 'Cyber Brief', 'specialist', 'tier_2', false, 2),
  source('port-logistics.example', 'Port & Logistics Review', 'specialist', 'tier_3', false, 2),
  source('open-feeds.example', 'Open Feeds Aggregator', 'aggregator', 'tier_3', false, 3),
];
