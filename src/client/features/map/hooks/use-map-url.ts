import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { useParamsWriter, type ParamsWriter } from '../../../lib/url-writer';
import { MAP_PARAM } from '../utils/map-view-param';
import { sitesShown } from '../utils/sites-param';

/** What the world map reads of the URL, and how it writes it back. */
export interface MapUrl {
  /** `?map=` as the page opened: the view a shared link carries (the map owns it afterwards). */
  linkedView: string | null;
  /** `?sites=1`: our sites are shown. */
  sitesShown: boolean;
  setParams: ParamsWriter;
}

/**
 * Read by the page for the map, so the map is handed values rather than subscribing to the
 * whole URL: it is drawn again only when one of them changes, not when a filter or the table
 * choice does (issue 32, point 7: a tier box took the map's render into its click).
 */
export function useMapUrl(): MapUrl {
  const [params] = useSearchParams();
  const [linkedView] = useState(() => params.get(MAP_PARAM));
  return { linkedView, sitesShown: sitesShown(params), setParams: useParamsWriter() };
}
