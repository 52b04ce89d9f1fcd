import { DAY_MS } from '../../../shared/durations.js';
import { csvRows, type RawRow } from './import-rows.js';

/**
 * Demo mode's fictional company, Northwind Engineering, as the CSV file a person would import:
 * offices, plants, warehouses and projects in about 30 countries, one warehouse near a border
 * (Lublin, ~80 km from Ukraine), and a few trips dated around the day the demo starts (`now`),
 * so /exposure has content from the first start.
 */
function demoSitesCsv(now: number): string {
  const inDays = (days: number): string => new Date(now + days * DAY_MS).toISOString().slice(0, 10);
  return `ref,name,kind,lat,lng,people,tags,from,to
NW-HQ,"Head office, London",office,51.507,-0.128,420,demo|corporate
NW-PAR,Paris office,office,48.857,2.352,85,demo|corporate
NW-BER,Berlin office,office,52.52,13.405,60,demo|corporate
NW-WAW,Warsaw office,office,52.23,21.012,75,demo|corporate
NW-LUB,Lublin warehouse,warehouse,51.247,22.568,35,demo|corporate
NW-RZE,Rzeszów plant,plant,50.041,21.999,310,demo|manufacturing
NW-IST,Istanbul office,office,41.008,28.978,55,demo|corporate
NW-CAI,Cairo office,office,30.044,31.236,40,demo|corporate
NW-LAG,Lagos office,office,6.524,3.379,45,demo|corporate
NW-ABJ,Abidjan warehouse,warehouse,5.36,-4.008,20,demo|corporate
NW-NBO,Nairobi office,office,-1.292,36.822,50,demo|corporate
NW-ADD,Addis Ababa project,project,9.03,38.74,25,demo|corporate
NW-JNB,Johannesburg plant,plant,-26.204,28.047,260,demo|manufacturing
NW-DXB,Dubai office,office,25.205,55.271,70,demo|corporate
NW-RUH,Riyadh project,project,24.713,46.675,30,demo|corporate
NW-KHI,Karachi warehouse,warehouse,24.861,67.01,18,demo|corporate
NW-DEL,Delhi office,office,28.614,77.209,90,demo|corporate
NW-PNQ,Pune plant,plant,18.52,73.857,540,demo|manufacturing
NW-DAC,Dhaka plant,plant,23.81,90.413,380,demo|manufacturing
NW-SGP,Singapore office,office,1.29,103.85,65,demo|corporate
NW-JKT,Jakarta warehouse,warehouse,-6.208,106.846,22,demo|corporate
NW-MNL,Manila office,office,14.6,120.984,35,demo|corporate
NW-SHA,Shanghai plant,plant,31.23,121.474,620,demo|manufacturing
NW-TYO,Tokyo office,office,35.676,139.65,40,demo|corporate
NW-SYD,Sydney office,office,-33.869,151.209,30,demo|corporate
NW-NYC,New York office,office,40.713,-74.006,150,demo|corporate
NW-HOU,Houston plant,plant,29.76,-95.37,280,demo|manufacturing
NW-MEX,Mexico City office,office,19.433,-99.133,65,demo|corporate
NW-MTY,Monterrey plant,plant,25.686,-100.316,410,demo|manufacturing
NW-BOG,Bogotá office,office,4.711,-74.072,30,demo|corporate
NW-LIM,Lima project,project,-12.046,-77.043,15,demo|corporate
NW-SAO,São Paulo plant,plant,-23.55,-46.633,350,demo|manufacturing
NW-BUE,Buenos Aires office,office,-34.604,-58.382,25,demo|corporate
NW-KYV,Kyiv project,project,50.45,30.524,12,demo|corporate
NW-TBS,Tbilisi residence,residence,41.716,44.783,4,demo|corporate
NW-BKO,Bamako project,project,12.639,-8.003,8,demo|corporate
NW-T-BEY,Trip: Beirut client visit,travel,33.894,35.502,3,demo|travel,${inDays(2)},${inDays(7)}
NW-T-KRT,Trip: Khartoum site survey,travel,15.5,32.56,2,demo|travel,${inDays(10)},${inDays(17)}
NW-T-CCS,Trip: Caracas audit,travel,10.48,-66.904,2,demo|travel,${inDays(-1)},${inDays(3)}
NW-T-ODS,Trip: Odesa port inspection,travel,46.482,30.723,2,demo|travel,${inDays(5)},${inDays(8)}
`;
}

/** The demo company's sites as an import's rows, read by the importer people's files go through. */
export function demoSiteRows(now: number): RawRow[] {
  return csvRows(Buffer.from(demoSitesCsv(now)));
}
