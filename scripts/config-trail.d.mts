/** The part a file belongs to (scripts/config-trail.mjs's header); null for the root, compose/. */
export function partOf(file: string): string | null;

/** Following `config` from buildApp: distinct files, returns, files per part, parts over one. */
export const configTrail: {
  files: number;
  returns: number;
  parts: Record<string, string[]>;
  crowded: string[];
  trail: string[];
};
