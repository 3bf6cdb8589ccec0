/** Latency figures of repeated calls, in milliseconds. */
export interface Timing {
  runs: number;
  p50: number;
  p99: number;
  mean: number;
}

/** p50, p99 and mean of latency samples (ms), all 0 when there are none; sorts in place. */
export function summarize(samples: number[]): Timing {
  if (samples.length === 0) return { runs: 0, p50: 0, p99: 0, mean: 0 };
  samples.sort((a, b) => a - b);
  const at = (q: number) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))];
  return {
    runs: samples.length,
    p50: at(0.5),
    p99: at(0.99),
    mean: samples.reduce((sum, s) => sum + s, 0) / samples.length,
  };
}

/** The middle value (the mean of the two middle ones when even), NaN when there are none. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Times `runs` sequential calls after `warmup` untimed ones. */
export async function time(
  call: () => Promise<unknown>,
  runs: number,
  warmup = 20,
): Promise<Timing> {
  for (let i = 0; i < warmup; i++) await call();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = process.hrtime.bigint();
    await call();
    samples.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  return summarize(samples);
}

export const format = (t: Timing): string =>
  `p50 ${t.p50.toFixed(2)} ms, p99 ${t.p99.toFixed(2)} ms, mean ${t.mean.toFixed(2)} ms (${t.runs} runs)`;
