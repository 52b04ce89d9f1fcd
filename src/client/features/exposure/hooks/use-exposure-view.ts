import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { exposureViewParams, parseExposureView, type ExposureView } from '../utils/exposure-view';

/** The view of `/exposure` read from and written to the URL (the URL drives the query key). */
export function useExposureView(): [ExposureView, (change: Partial<ExposureView>) => void] {
  const [params, setParams] = useSearchParams();
  const view = useMemo(() => parseExposureView(params), [params]);
  const update = useCallback(
    (change: Partial<ExposureView>) => {
      // Replace, not push: a filter refines one view; flushSync keeps controlled inputs steady.
      setParams(
        (current) => exposureViewParams({ ...parseExposureView(current), ...change }, current),
        { replace: true, preventScrollReset: true, flushSync: true },
      );
    },
    [setParams],
  );
  return [view, update];
}
