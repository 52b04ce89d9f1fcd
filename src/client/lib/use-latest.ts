import { useLayoutEffect, useRef, type RefObject } from 'react';

/**
 * A ref holding the value of the last commit, for a callback that must stay the same function
 * (a memoised component's prop) yet read the current value when it is called.
 */
export function useLatest<T>(value: T): RefObject<T> {
  const ref = useRef(value);
  useLayoutEffect(() => {
    ref.current = value;
  });
  return ref;
}
