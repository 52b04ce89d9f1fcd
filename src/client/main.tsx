// First: the Zod setting must be in place before any module builds a schema.
import './lib/zod-config';
import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter } from 'react-router';
import { App } from './app/app';
import { FirstFrameHandover } from './app/first-frame';
import { keyFirstEntry } from './app/history-entry';
import { registerOfflineWorker } from './app/offline-worker';
import { routes } from './app/routes';
import {
  FIRST_RENDER_WAIT_MS,
  FRAMED_RENDER_WAIT_MS,
  routeLoaded,
  startPage,
} from './app/start-page';
import { applyLanguage, loadLanguage, pageLanguage } from './lib/i18n';
import { createQueryClient } from './lib/query-client';
import 'virtual:tier-colours.css';
import './styles/base.css';
import './styles/components.css';
import './styles/map.css';
import './styles/country.css';
import './styles/history.css';
import './styles/alerts.css';
import './styles/forms.css';
import './styles/exposure.css';
import './styles/admin.css';
import './styles/print.css';

// The language before the first render, so it draws in it (the saved setting, known only once
// /api/me/settings answers, is applied by LanguageFollow in the layout).
const language = pageLanguage({
  query: new URLSearchParams(window.location.search).get('lang'),
  browser: navigator.languages,
});

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

const queryClient = createQueryClient();
keyFirstEntry();

/**
 * The rest of the start, in a task after the one that evaluated the scripts (issue 32): on a
 * phone at 4x CPU the evaluation and this start were one task of 600–700 ms, in which the
 * frame on screen answered no tap. The page's data is already on its way (the BFF's preload
 * hints came with the HTML), so the requests lose nothing by it.
 */
async function start(container: HTMLElement): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 0));
  // Made now, so the page's lazy route starts loading beside its data.
  const router = createBrowserRouter(routes);
  // The first render waits (briefly, or behind the server's first frame until they are in) for
  // the page's data and chunks, so it draws the page itself. Its catalogue is fetched beside the
  // page's data (English is in this script; a failed fetch leaves the page in English rather
  // than blank).
  const framed = document.getElementById('first-frame') !== null;
  const wait = framed ? FRAMED_RENDER_WAIT_MS : FIRST_RENDER_WAIT_MS;
  await Promise.all([
    startPage(queryClient, window.location, wait, [routeLoaded(router)]),
    loadLanguage(language).catch(() => undefined),
  ]);
  applyLanguage(language, document.documentElement);
  const root = createRoot(container);
  const app = (
    <StrictMode>
      <App queryClient={queryClient} router={router} />
      <FirstFrameHandover />
    </StrictMode>
  );
  // Behind the server's frame, the first render is a transition: React renders in slices of a
  // few milliseconds, so a tap or a scroll on the frame is answered between them, and the page
  // is not one long task (issue 32's blocking time). Nothing shows until it commits, and the
  // frame is the page meanwhile. Without a frame there is nothing to read until then: rendered
  // at once.
  if (framed) startTransition(() => root.render(app));
  else root.render(app);
}
void start(container);
registerOfflineWorker();
