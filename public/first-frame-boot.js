// A page the server framed (src/server/services/rendering/first-frame.ts) starts the SPA here,
// once the frame has been painted: its scripts then no longer share a slow connection with the
// stylesheet the frame's first paint waits for (issue 32). The entry and the modules it links
// ahead are the ones Vite wrote into index.html, carried over as this script's data. A plain
// script (not a module) so that it needs nothing of the build; the CSP allows it as 'self'.
(() => {
  const boot = document.currentScript;
  if (!boot) return;
  const entry = boot.dataset.entry;
  const modules = (boot.dataset.modules ?? '').split(' ').filter(Boolean);
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    for (const href of modules) {
      const link = document.createElement('link');
      link.rel = 'modulepreload';
      link.crossOrigin = '';
      link.href = href;
      document.head.append(link);
    }
    const script = document.createElement('script');
    script.type = 'module';
    script.crossOrigin = '';
    script.src = entry;
    document.head.append(script);
  };
  // After the first contentful paint has been presented (a frame callback, or a task it
  // queues, comes before the screen shows the frame: Lighthouse's trace had the entry asked
  // for 30-110 ms before it, and the load event can come before it too). Where no paint is
  // reported (a page opened in a background tab, a browser without paint timing), at the load
  // event; and two seconds after it in any case, so that nothing waits on a paint that never
  // comes.
  const paints = PerformanceObserver.supportedEntryTypes?.includes('paint') ?? false;
  if (paints) {
    new PerformanceObserver((list, observer) => {
      if (list.getEntriesByName('first-contentful-paint').length === 0) return;
      observer.disconnect();
      start();
    }).observe({ type: 'paint', buffered: true });
  }
  const unseen = !paints || document.visibilityState === 'hidden';
  addEventListener('load', () => (unseen ? start() : setTimeout(start, 2000)), { once: true });
})();
