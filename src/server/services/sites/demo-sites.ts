import type { SiteKind } from '../../../shared/sites-api.js';

type DemoSite = [
  ref: string,
  name: string,
  kind: SiteKind,
  lat: number,
  lng: number,
  people: number,
];

/*
 * Demo mode's fictional company, Northwind Engineering: offices, plants, warehouses and projects
 * in about 30 countries, one warehouse near a border (Lublin, ~80 km from Ukraine), and a few
 * trips dated around the day the demo starts, so /exposure has content from the first start.
 */
const SITES: DemoSite[] = [
  ['NW-HQ', 'Head office, London', 'office', 51.507, -0.128, 420],
  ['NW-PAR', 'Paris office', 'office', 48.857, 2.352, 85],
  ['NW-BER', 'Berlin office', 'office', 52.52, 13.405, 60],
  ['NW-WAW', 'Warsaw office', 'office', 52.23, 21.012, 75],
  ['NW-LUB', 'Lublin warehouse', 'warehouse', 51.247, 22.568, 35],
  ['NW-RZE', 'Rzeszów plant', 'plant', 50.041, 21.999, 310],
  ['NW-IST', 'Istanbul office', 'office', 41.008, 28.978, 55],
  ['NW-CAI', 'Cairo office', 'office', 30.044, 31.236, 40],
  ['NW-LAG', 'Lagos office', 'office', 6.524, 3.379, 45],
  ['NW-ABJ', 'Abidjan warehouse', 'warehouse', 5.36, -4.008, 20],
  ['NW-NBO', 'Nairobi office', 'office', -1.292, 36.822, 50],
  ['NW-ADD', 'Addis Ababa project', 'project', 9.03, 38.74, 25],
  ['NW-JNB', 'Johannesburg plant', 'plant', -26.204, 28.047, 260],
  ['NW-DXB', 'Dubai office', 'office', 25.205, 55.271, 70],
  ['NW-RUH', 'Riyadh project', 'project', 24.713, 46.675, 30],
  ['NW-KHI', 'Karachi warehouse', 'warehouse', 24.861, 67.01, 18],
  ['NW-DEL', 'Delhi office', 'office', 28.614, 77.209, 90],
  ['NW-PNQ', 'Pune plant', 'plant', 18.52, 73.857, 540],
  ['NW-DAC', 'Dhaka plant', 'plant', 23.81, 90.413, 380],
  ['NW-SGP', 'Singapore office', 'office', 1.29, 103.85, 65],
  ['NW-JKT', 'Jakarta warehouse', 'warehouse', -6.208, 106.846, 22],
  ['NW-MNL', 'Manila office', 'office', 14.6, 120.984, 35],
  ['NW-SHA', 'Shanghai plant', 'plant', 31.23, 121.474, 620],
  ['NW-TYO', 'Tokyo office', 'office', 35.676, 139.65, 40],
  ['NW-SYD', 'Sydney office', 'office', -33.869, 151.209, 30],
  ['NW-NYC', 'New York office', 'office', 40.713, -74.006, 150],
  ['NW-HOU', 'Houston plant', 'plant', 29.76, -95.37, 280],
  ['NW-MEX', 'Mexico City office', 'office', 19.433, -99.133, 65],
  ['NW-MTY', 'Monterrey plant', 'plant', 25.686, -100.316, 410],
  ['NW-BOG', 'Bogotá office', 'office', 4.711, -74.072, 30],
  ['NW-LIM', 'Lima project', 'project', -12.046, -77.043, 15],
  ['NW-SAO', 'São Paulo plant', 'plant', -23.55, -46.633, 350],
  ['NW-BUE', 'Buenos Aires office', 'office', -34.604, -58.382, 25],
  ['NW-KYV', 'Kyiv project', 'project', 50.45, 30.524, 12],
  ['NW-TBS', 'Tbilisi residence', 'residence', 41.716, 44.783, 4],
  ['NW-BKO', 'Bamako project', 'project', 12.639, -8.003, 8],
];

/** Trips: [ref, name, lat, lng, people, days from the start until the trip, its length in days]. */
const TRIPS: Array<[string, string, number, number, number, number, number]> = [
  ['NW-T-BEY', 'Trip: Beirut client visit', 33.894, 35.502, 3, 2, 5],
  ['NW-T-KRT', 'Trip: Khartoum site survey', 15.5, 32.56, 2, 10, 7],
  ['NW-T-CCS', 'Trip: Caracas audit', 10.48, -66.904, 2, -1, 4],
  ['NW-T-ODS', 'Trip: Odesa port inspection', 46.482, 30.723, 2, 5, 3],
];

const day = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** The demo company's sites as an import's JSON rows, trips dated around `now`. */
export function demoSiteRows(now: number): Array<Record<string, unknown>> {
  return [
    ...SITES.map(([ref, name, kind, lat, lng, people]) => ({
      ref,
      name,
      kind,
      lat,
      lng,
      people,
      tags: ['demo', kind === 'plant' ? 'manufacturing' : 'corporate'],
    })),
    ...TRIPS.map(([ref, name, lat, lng, people, inDays, days]) => ({
      ref,
      name,
      kind: 'travel',
      lat,
      lng,
      people,
      tags: ['demo', 'travel'],
      from: day(now + inDays * 86_400_000),
      to: day(now + (inDays + days) * 86_400_000),
    })),
  ];
}
