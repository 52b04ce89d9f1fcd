export interface LongFunction {
  file: string;
  line: number;
  lines: number;
  name: string;
}
export function longFunctionsIn(fileName: string, source: string, limit: number): LongFunction[];
export function longFunctions(limit?: number): LongFunction[];
