// Formatting for the bench's text report: numbers, ratios, sizes, text tables, and the figures
// picked out of the server's own lines and answers.

export const fin = (v: number | undefined | null): v is number => typeof v === 'number' && Number.isFinite(v);
export const fmt = (v: number | undefined | null, digits = 0): string =>
  fin(v) ? v.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits }) : 'n/a';
export const ratio = (a: number | undefined | null, b: number | undefined | null): string => (fin(a) && fin(b) && b !== 0 ? `${(a / b).toFixed(2)}x` : 'n/a');
export const mib = (b: number): string => `${(b / 1048576).toFixed(1)} MiB`;
export const signed = (v: number): string => `${v >= 0 ? '+' : ''}${v.toFixed(4)}`;

/** The 'engine ready' log line without the fields every line has. */
export function engineSummary(line: Record<string, unknown> | null): string {
  if (line === null) return 'no engine ready line';
  const skip = new Set(['level', 'time', 'pid', 'hostname', 'rest_port', 'msg', 'hnsw_build']);
  return Object.entries(line)
    .filter(([k]) => !skip.has(k))
    .map(([k, v]) => `${k} ${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(', ');
}

/** Every numeric field whose name speaks of memory or bytes, by path (issue 14's memory reporting). */
export function memoryFields(v: unknown, path = '', out: [string, number][] = []): [string, number][] {
  if (out.length >= 40 || v === null || typeof v !== 'object') return out;
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
    const p = path === '' ? k : `${path}.${k}`;
    if (typeof x === 'number' && /memory|bytes|rss/i.test(p)) out.push([p, x]);
    else memoryFields(x, p, out);
  }
  return out;
}

export function table(head: string[], rows: string[][]): string[] {
  const widths = head.map((h, c) => Math.max(h.length, ...rows.map((r) => (r[c] ?? '').length)));
  const line = (cells: readonly string[]): string => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ');
  return [line(head), widths.map((w) => '-'.repeat(w)).join('-|-'), ...rows.map(line)];
}
