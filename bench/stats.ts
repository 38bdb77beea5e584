/** Summary statistics of a sample (nearest-rank percentiles), as the report prints them. */
export interface Summary {
  readonly n: number;
  readonly min: number;
  readonly p50: number;
  readonly p90: number;
  readonly p99: number;
  readonly max: number;
  readonly mean: number;
}

export function summarize(values: readonly number[]): Summary {
  const sorted = [...values].sort((a, b) => a - b);
  const n = sorted.length;
  if (n === 0)
    return {
      n,
      min: Number.NaN,
      p50: Number.NaN,
      p90: Number.NaN,
      p99: Number.NaN,
      max: Number.NaN,
      mean: Number.NaN,
    };
  const at = (p: number) => sorted[Math.min(n, Math.max(1, Math.ceil((p / 100) * n))) - 1] as number;
  const mean = sorted.reduce((s, v) => s + v, 0) / n;
  return {
    n,
    min: sorted[0] as number,
    p50: at(50),
    p90: at(90),
    p99: at(99),
    max: sorted[n - 1] as number,
    mean,
  };
}
