// The value range an int8 (scalar) quantization maps onto its 256 codes (docs/storage.md,
// "Quantized graphs"): Qdrant's `quantile` keeps that central share of the values seen and clips
// the rest (outliers would otherwise stretch every code's step); no quantile keeps the whole
// range. The range is learned from a sample of the collection's vectors when its graph is built,
// and kept with the graph: codes made under one range are meaningless under another.

/** Values sampled at most: enough for a quantile of 0.99 to be steady, cheap to sort. */
export const SAMPLE_VALUES = 1 << 20;

export interface ScalarRange {
  /** The float each code step stands for. */
  alpha: number;
  /** The float code 0 stands for. */
  offset: number;
}

/**
 * The range of `rows` (each `dim` floats, all finite) keeping the central `quantile` of their
 * values (null: all of them), as code step and offset. An empty or constant sample gets a range
 * one unit wide around its value, so every code is defined.
 */
export function scalarRange(rows: readonly Float32Array[], quantile: number | null, random: () => number = Math.random): ScalarRange {
  let total = 0;
  for (const r of rows) total += r.length;
  if (total === 0) return { alpha: 1 / 255, offset: -0.5 };
  // Every value when they fit the sample, else a uniform sample of them.
  const take = Math.min(total, SAMPLE_VALUES);
  const sample = new Float32Array(take);
  if (take === total) {
    let at = 0;
    for (const r of rows) {
      sample.set(r, at);
      at += r.length;
    }
  } else {
    for (let i = 0; i < take; i++) {
      const r = rows[Math.floor(random() * rows.length)]!;
      sample[i] = r[Math.floor(random() * r.length)]!;
    }
  }
  sample.sort();
  const q = quantile ?? 1;
  const cut = Math.floor(((1 - q) / 2) * (take - 1));
  const lo = sample[cut]!;
  const hi = sample[take - 1 - cut]!;
  if (!(hi > lo)) return { alpha: 1 / 255, offset: lo - 0.5 };
  return { alpha: (hi - lo) / 255, offset: lo };
}
