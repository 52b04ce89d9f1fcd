import { useLayoutEffect } from 'react';

/**
 * The server's first frame of the page (issue 32: index, movers, hotspots, a static map; a
 * country's header, categories and events), shown while the JavaScript loads. The SPA takes over
 * after its first commit, before that frame is painted: the frame goes and the SPA's root, laid
 * out all along beneath it (invisible), shows in the same paint, so nothing moves.
 */
export function useFirstFrameHandover(): void {
  useLayoutEffect(() => {
    document.getElementById('first-frame')?.remove();
    document.getElementById('root')?.classList.remove('behind-first-frame');
  }, []);
}

export function FirstFrameHandover(): null {
  useFirstFrameHandover();
  return null;
}
