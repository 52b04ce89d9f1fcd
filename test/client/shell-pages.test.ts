import { readFileSync } from 'node:fs';
import type { RouteObject } from 'react-router';
import { describe, expect, it } from 'vitest';
import { routes } from '../../src/client/app/routes';
import { SHELL_PAGES } from '../../src/server/routes/first-frame';

/** Every path the route table matches, an optional last segment written both ways. */
function pathsOf(table: RouteObject[], parent = ''): string[] {
  return table.flatMap((route) => {
    const here = route.path === undefined ? parent : `${parent}/${route.path}`.replace(/\/+/g, '/');
    const own = route.path === undefined ? [] : [here];
    const withOptional = own.flatMap((path) =>
      path.endsWith('?') ? [path.replace(/\/:[^/]+\?$/, ''), path.slice(0, -1)] : [path],
    );
    return [...withOptional, ...pathsOf(route.children ?? [], here)];
  });
}

describe("the server's title bar on the SPA's pages (issue 32, point 4)", () => {
  it('is given to every page of the route table but the two with a whole frame', () => {
    const framed = ['/', '/country/:iso'];
    const pages = pathsOf(routes).filter((path) => !framed.includes(path) && !path.endsWith('*'));
    expect(Object.keys(SHELL_PAGES).sort()).toEqual(pages.sort());
  });

  it("names each page's own module: the one the route table loads for its path", () => {
    // app/routes.tsx, read as text: each lazy route's path and the module its lazy() imports
    // (an optional last segment written both ways).
    const table = readFileSync('src/client/app/routes.tsx', 'utf8');
    const lazyRoute =
      /path: '([^']+)',\s*lazy: async \(\) => \(\{[^}]*?import\('\.\/routes\/([^']+)'\)/g;
    const loaded = new Map(
      [...table.matchAll(lazyRoute)].flatMap(([, path = '', name = '']) =>
        path.endsWith('?')
          ? [
              [`/${path.replace(/\/:[^/]+\?$/, '')}`, name],
              [`/${path.slice(0, -1)}`, name],
            ]
          : [[`/${path}`, name]],
      ),
    );
    expect(loaded.size).toBe(Object.keys(SHELL_PAGES).length);
    for (const [path, name] of Object.entries(SHELL_PAGES))
      expect(loaded.get(path), path).toBe(name);
  });
});
