export interface Warp {
  virtualStart: number;
  factor: number;
  realStart: number | null;
}
export function warpedNow(warp: Warp, realNow: () => number): () => number;
export function parseWarp(text: string): Warp;
