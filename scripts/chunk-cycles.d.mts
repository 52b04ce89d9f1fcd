export const STATIC_IMPORT: RegExp;
export function chunkCycles(chunks: ReadonlyMap<string, string>): string[][];
