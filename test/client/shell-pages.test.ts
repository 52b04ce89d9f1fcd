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
    expect([...SHELL_PAGES].sort()).toEqual(pages.sort());
  });
});
