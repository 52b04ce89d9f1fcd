import { describe, expect, it } from 'vitest';
import { chunkCycles } from '../../scripts/chunk-cycles.mjs';

// The budget check fails a build whose chunks import each other in a loop (scripts/chunk-cycles.mjs
// says why); these are the import forms the bundler writes.
describe('chunk import cycles', () => {
  it('finds two chunks that import each other, as the map once did', () => {
    const chunks = new Map([
      ['index-a.js', 'import{t as e}from"./vendor-b.js";import("./world-map-c.js")'],
      ['vendor-b.js', 'export const t=1'],
      [
        'world-map-c.js',
        'import{a as e,t}from"./vendor-b.js";import{n as w}from"./world-map-d.js"',
      ],
      ['world-map-d.js', 'import{t as e}from"./world-map-c.js";export const n=2'],
    ]);
    expect(chunkCycles(chunks)).toEqual([['world-map-c.js', 'world-map-d.js', 'world-map-c.js']]);
  });

  it('finds a longer loop and one through a bare import', () => {
    const chunks = new Map([
      ['a.js', 'import"./b.js"'],
      ['b.js', 'import {x} from "./c.js"'],
      ['c.js', "import * as all from './a.js'"],
    ]);
    expect(chunkCycles(chunks)).toEqual([['a.js', 'b.js', 'c.js', 'a.js']]);
  });

  it('does not count a dynamic import, which loads after the importer has run', () => {
    const chunks = new Map([
      ['index-a.js', 'const m=()=>import("./page-b.js")'],
      ['page-b.js', 'import{t}from"./index-a.js"'],
    ]);
    expect(chunkCycles(chunks)).toEqual([]);
  });
});
