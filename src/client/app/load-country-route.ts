/** The country page (and recharts with it) is its own chunk, fetched on visit or on intent. */
export const loadCountryRoute = () => import('./routes/country-route');
