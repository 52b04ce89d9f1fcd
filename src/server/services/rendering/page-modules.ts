import { join } from 'node:path';
import { escapeHtml } from './frame-words.js';

/** One chunk of Vite's build manifest (`build.manifest` in vite.config.ts). */
interface ManifestChunk {
  file: string;
  imports?: string[];
  css?: string[];
}

/** Where `vite build` writes its manifest, under the built SPA (not served: a dot folder). */
export const MANIFEST_PATH = join('.vite', 'manifest.json');

/**
 * The `<link>` tags that fetch a lazily loaded page's modules with the HTML (issue 32): the
 * page's chunk (`source`, as the manifest names it: its path in the repository) and every chunk
 * it imports, as `modulepreload`; their stylesheets as `preload` (a stylesheet link in the head
 * would hold the first paint), `crossorigin` as Vite's loader asks for them: a preload whose
 * credentials differ from the request's is not used, and the stylesheet was fetched twice.
 * Files the index.html already loads are left out.
 *
 * Without them, Vite's loader of the lazy page appended these links itself as the SPA started:
 * 19 on a country page, 138 ms of one task at 4x CPU on a phone (docs/benchmarks.md); it adds
 * none that the page already has. No manifest (`manifestJson` null: a server run from source, a
 * test's page) or no such chunk: no tags, and the loader does it as before.
 *
 * The manifest is parsed here, once for all the pages asked of the returned function.
 */
export function pageModuleLinker(
  manifestJson: string | null,
  indexHtml: string,
): (source: string) => string {
  if (manifestJson === null) return () => '';
  const manifest = JSON.parse(manifestJson) as Record<string, ManifestChunk>;
  const fresh = (file: string) => !indexHtml.includes(`/${file}"`);
  const href = (file: string) => escapeHtml(`/${file}`);
  return (source) => {
    const scripts: string[] = [];
    const styles = new Set<string>();
    const seen = new Set<string>();
    const visit = (key: string) => {
      const chunk = manifest[key];
      if (!chunk || seen.has(key)) return;
      seen.add(key);
      scripts.push(chunk.file);
      for (const css of chunk.css ?? []) styles.add(css);
      for (const imported of chunk.imports ?? []) visit(imported);
    };
    visit(source);
    return [
      ...scripts
        .filter(fresh)
        .map((file) => `<link rel="modulepreload" crossorigin href="${href(file)}">`),
      ...[...styles]
        .filter(fresh)
        .map((file) => `<link rel="preload" as="style" crossorigin href="${href(file)}">`),
    ].join('');
  };
}

/** `html` with `tags` at the end of its head (unchanged without a head or tags). */
export function withHeadTags(html: string, tags: string): string {
  if (tags === '' || !html.includes('</head>')) return html;
  return html.replace('</head>', () => `${tags}</head>`);
}
