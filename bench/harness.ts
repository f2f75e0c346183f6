// The one benchmark harness: warm-up, timed samples, median and p99, and a
// baseline measured in the same run so figures are printed as ratios.
export interface Sample {
  readonly name: string;
  readonly medianMs: number;
  readonly p99Ms: number;
  readonly samples: number;
}

export interface MeasureOptions {
  readonly warmup?: number;
  readonly samples?: number;
}

function percentile(sorted: readonly number[], fraction: number): number {
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1));
  return sorted[index] ?? Number.NaN;
}

/** Times `fn` (sync or async) `samples` times after `warmup` untimed runs. */
export async function measure(name: string, fn: () => unknown, options: MeasureOptions = {}): Promise<Sample> {
  const warmup = options.warmup ?? 3;
  const count = options.samples ?? 15;
  for (let i = 0; i < warmup; i++) await fn();
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const start = process.hrtime.bigint();
    await fn();
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  times.sort((a, b) => a - b);
  return { name, medianMs: percentile(times, 0.5), p99Ms: percentile(times, 0.99), samples: count };
}

/**
 * Times two functions in alternation (A, B, A, B, ...), so that drift in the
 * machine's state (page cache, disk discards, other load) affects both alike.
 */
export interface PairResult {
  readonly a: Sample;
  readonly b: Sample;
  /**
   * Median over the pairs of b's time / a's time: how many times faster A was than
   * B, robust to drift because each pair ran back to back.
   */
  readonly speedup: number;
}

export async function measurePair(a: { name: string; fn: () => unknown }, b: { name: string; fn: () => unknown }, options: MeasureOptions = {}): Promise<PairResult> {
  const warmup = options.warmup ?? 3;
  const count = options.samples ?? 15;
  for (let i = 0; i < warmup; i++) {
    await a.fn();
    await b.fn();
  }
  const times: [number[], number[]] = [[], []];
  for (let i = 0; i < count; i++) {
    for (const [index, side] of [a, b].entries()) {
      const start = process.hrtime.bigint();
      await side.fn();
      times[index]!.push(Number(process.hrtime.bigint() - start) / 1e6);
    }
  }
  const ratios = times[0].map((timeA, i) => times[1][i]! / timeA).sort((x, y) => x - y);
  const summarize = (name: string, list: number[]): Sample => {
    const sorted = [...list].sort((x, y) => x - y);
    return { name, medianMs: percentile(sorted, 0.5), p99Ms: percentile(sorted, 0.99), samples: count };
  };
  return { a: summarize(a.name, times[0]), b: summarize(b.name, times[1]), speedup: percentile(ratios, 0.5) };
}

/**
 * Times several functions in rounds (A, B, C, A, B, C, ...), the first being the
 * baseline; each one's ratio is the median over rounds of its time ÷ the
 * baseline's time in the same round, so drift and load affect both alike.
 */
export interface RoundsResult {
  readonly samples: readonly Sample[];
  /** Per function, the median over rounds of its time ÷ the baseline's (1 for the baseline). */
  readonly ratios: readonly number[];
}

export async function measureRounds(sides: readonly { name: string; fn: () => unknown }[], options: MeasureOptions = {}): Promise<RoundsResult> {
  const warmup = options.warmup ?? 2;
  const count = options.samples ?? 15;
  for (let i = 0; i < warmup; i++) for (const side of sides) await side.fn();
  const times = sides.map((): number[] => []);
  for (let i = 0; i < count; i++) {
    for (const [index, side] of sides.entries()) {
      const start = process.hrtime.bigint();
      await side.fn();
      times[index]!.push(Number(process.hrtime.bigint() - start) / 1e6);
    }
  }
  const samples = sides.map((side, index) => {
    const sorted = [...times[index]!].sort((x, y) => x - y);
    return { name: side.name, medianMs: percentile(sorted, 0.5), p99Ms: percentile(sorted, 0.99), samples: count };
  });
  const ratios = times.map((list) =>
    percentile(
      list.map((t, round) => t / times[0]![round]!).sort((x, y) => x - y),
      0.5,
    ),
  );
  return { samples, ratios };
}

/**
 * For fast synchronous calls: median nanoseconds per call over `rounds` rounds of
 * `n` calls each, alternating A and B; `ratio` is the median over rounds of A ÷ B.
 */
export function pairedNs(a: () => unknown, b: () => unknown, n = 20_000, rounds = 9): { a: number; b: number; ratio: number } {
  for (let i = 0; i < n; i++) {
    a();
    b();
  }
  const as: number[] = [];
  const bs: number[] = [];
  for (let r = 0; r < rounds; r++) {
    let start = process.hrtime.bigint();
    for (let i = 0; i < n; i++) a();
    as.push(Number(process.hrtime.bigint() - start) / n);
    start = process.hrtime.bigint();
    for (let i = 0; i < n; i++) b();
    bs.push(Number(process.hrtime.bigint() - start) / n);
  }
  const median = (list: number[]) => [...list].sort((x, y) => x - y)[Math.floor(list.length / 2)]!;
  const ratios = as.map((x, i) => x / bs[i]!);
  return { a: median(as), b: median(bs), ratio: median(ratios) };
}

/** Throughput in MB/s (10^6 bytes) for `bytes` processed in `ms`. */
export function throughputMBs(bytes: number, ms: number): number {
  return bytes / 1e6 / (ms / 1e3);
}

export function formatTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n') + '\n';
}
