/**
 * The maps (issue 34): the world map's markers, tooltips, popups, controls and legend, the
 * sites layer, and the country page's locator map. Country names come from CLDR
 * (lib/display-name.ts), site names are the team's own text.
 */
export const enMap = {
  riskTier: 'Risk {{risk}} · {{tier}}',
  tierNa: 'tier n/a',
  changeNa: 'Change n/a',
  activeProvider: 'Active {{delta}} (provider’s own figure)',
  markerName: '{{name}}: risk {{risk}}, {{tier}}. Open country page',
  siteName: 'Site {{name}} ({{kind}}{{people}}), {{iso}} {{tier}}. Open site page',
  sitePeople: ', {{shown}} people',
  noCurrentData: 'no current data',
  clusterName_one: '{{shown}} site, {{people}} people, most severe tier {{tier}}. Zoom in',
  clusterName_other: '{{shown}} sites, {{people}} people, most severe tier {{tier}}. Zoom in',
  atOnePlace_one: '{{shown}} site at this place',
  atOnePlace_other: '{{shown}} sites at this place',
  theFirst: ' (the first {{shown}})',
  loadingData: 'Loading the data…',
  clickToOpen: 'Click to open the country page',
  learnedTiers:
    'Order of tiers this dashboard does not know learned from the scores: by the median risk of their countries, each coloured between the tiers it falls between.',
  legendSite: 'Our site, coloured by its country’s tier',
  legendCluster: 'Sites grouped (most severe tier); select to zoom in',
  twoFingers: 'Move or zoom the map with two fingers.',
  loadingRisk: 'Loading the risk data for the map…',
  attribution: 'Shapes: Natural Earth',
  zoomIn: 'Zoom in',
  zoomOut: 'Zoom out',
  locationMissing: 'The location of {{name}} is not available.',
  locatorLabel: 'Map showing the location of {{name}}',
} as const;
