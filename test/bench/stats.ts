// The few statistics the bench reports: medians and percentiles of samples, and ratios of them.

export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? Number.NaN;
}

export const median = (values: readonly number[]): number => percentile(values, 0.5);

/** `0.72×` */
export const times = (ratio: number): string => `${ratio.toFixed(2)}×`;

export const kib = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KB`;

export const ms = (value: number): string => `${value.toFixed(1)} ms`;

/** The list rotated by `by` places: each round visits the bundles in another order, so drift spreads evenly. */
export function rotated<T>(items: readonly T[], by: number): T[] {
  const shift = items.length === 0 ? 0 : by % items.length;
  return [...items.slice(shift), ...items.slice(0, shift)];
}
