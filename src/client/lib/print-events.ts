/**
 * Calls `start` when printing begins and `end` when it is over, until the returned remover is
 * called. Both signals are heard: `beforeprint`/`afterprint` come with a print dialog (while the
 * screen's layout still holds), the print media query also with print emulation and in engines
 * that print without the events. Either may come twice for one printing: callers are idempotent.
 */
export function onPrinting(start: () => void, end: () => void = () => {}): () => void {
  const print = typeof window.matchMedia === 'function' ? window.matchMedia('print') : null;
  const onMedia = (event: MediaQueryListEvent) => (event.matches ? start() : end());
  window.addEventListener('beforeprint', start);
  window.addEventListener('afterprint', end);
  print?.addEventListener('change', onMedia);
  return () => {
    window.removeEventListener('beforeprint', start);
    window.removeEventListener('afterprint', end);
    print?.removeEventListener('change', onMedia);
  };
}

/** Printing has begun (print emulation, or a print dialog's layout). */
export function isPrinting(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia('print').matches;
}
