/** Percentile p (0..100) of the samples, linear between the two nearest ranks. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = (p / 100) * (sorted.length - 1);
  const lo = Math.floor(rank);
  const hi = Math.ceil(rank);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (rank - lo);
}

export function median(samples: readonly number[]): number {
  return percentile(samples, 50);
}

/** Least-squares slope of y over x (e.g. MiB per minute of a memory series). */
export function slope(xs: readonly number[], ys: readonly number[]): number {
  const n = Math.min(xs.length, ys.length);
  if (n < 2) return 0;
  const mx = xs.slice(0, n).reduce((a, b) => a + b, 0) / n;
  const my = ys.slice(0, n).reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    num += (xs[i]! - mx) * (ys[i]! - my);
    den += (xs[i]! - mx) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

/**
 * Least-squares slope per minute of readings taken `s` seconds into a run; NaN when there are fewer
 * than `minReadings` or they span under `minSpanS`, so that a figure too thin to fit never reads as 0.
 */
export function fittedSlopePerMin(readings: readonly { s: number; value: number }[], minReadings: number, minSpanS: number): number {
  if (readings.length < Math.max(2, minReadings) || readings.at(-1)!.s - readings[0]!.s < minSpanS) return NaN;
  return slope(
    readings.map((r) => r.s / 60),
    readings.map((r) => r.value),
  );
}

/**
 * Slope of the floor of a garbage-collected heap: the lowest sample of each `windowS`-second window,
 * fitted by least squares. RSS saws up and down by tens of MiB between collections; a leak raises
 * the floor the collections return to, so that is what is fitted.
 */
export function floorSlope(samples: readonly { s: number; value: number }[], windowS: number): number {
  const floors = new Map<number, { s: number; value: number }>();
  for (const x of samples) {
    const w = Math.floor(x.s / windowS);
    const low = floors.get(w);
    if (!low || x.value < low.value) floors.set(w, { s: (w + 0.5) * windowS, value: x.value });
  }
  const points = [...floors.values()];
  return slope(
    points.map((p) => p.s),
    points.map((p) => p.value),
  );
}
