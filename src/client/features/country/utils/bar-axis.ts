/**
 * The steps of a bar chart's value axis from 0: its top is `max` rounded up to a whole number of
 * steps, each step 1, 2, 2.5 or 5 times a power of ten, about four of them (95 → 0, 25, 50, 75,
 * 100, as the drawing library the chart used to be drawn with chose).
 */
export function axisSteps(max: number): number[] {
  if (!Number.isFinite(max) || max <= 0) return [0, 1];
  const rough = max / 4;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * power).find((s) => s >= rough) ?? 10 * power;
  const count = Math.ceil(max / step - 1e-9);
  return Array.from({ length: count + 1 }, (_, i) => Number((i * step).toPrecision(12)));
}

/** The decimals an axis label needs to tell the steps apart: the step's own (0.25 → 2, 25 → 0). */
export function stepDecimals(steps: readonly number[]): number {
  const step = steps[1] ?? 0;
  return String(step).split('.')[1]?.length ?? 0;
}
