/** `?sites=1` shows our sites on the map; any other value (or none) hides them. */
export const SITES_PARAM = 'sites';

export function sitesShown(params: URLSearchParams): boolean {
  return params.get(SITES_PARAM) === '1';
}

/** The parameters with the layer on or off (off removes it: the default needs no parameter). */
export function withSitesShown(params: URLSearchParams, shown: boolean): URLSearchParams {
  const updated = new URLSearchParams(params);
  if (shown) updated.set(SITES_PARAM, '1');
  else updated.delete(SITES_PARAM);
  return updated;
}
