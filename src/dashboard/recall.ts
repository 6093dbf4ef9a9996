// Live recall from GET /metrics: the server samples searches against exact ones and exports, per
// collection and per filtered/unfiltered, `quiver_live_recall` (0..1) and
// `quiver_live_recall_samples_total`. Read from the Prometheus text format (labels in any order).

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const LINE = /^([A-Za-z_:][\w:]*)(?:\{(.*)\})?\s+(\S+)/;
const LABEL = /([A-Za-z_]\w*)\s*=\s*"((?:[^"\\]|\\.)*)"/g;

function unescape(v: string): string {
  return v.replace(/\\(.)/g, (_m, c: string) => (c === 'n' ? '\n' : c));
}

/** The samples of the named metrics in a Prometheus text exposition; comments and others skipped. */
export function parseMetrics(text: string, names: ReadonlySet<string>): Sample[] {
  const out: Sample[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const m = LINE.exec(line);
    if (m === null || !names.has(m[1] ?? '')) continue;
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(LABEL)) labels[l[1] ?? ''] = unescape(l[2] ?? '');
    out.push({ name: m[1] ?? '', labels, value: Number(m[3]) });
  }
  return out;
}

export interface Recall {
  recall: number;
  samples: number | null;
}

export type LiveRecall = { unfiltered: Recall | null; filtered: Recall | null };

/** A collection's live recall, unfiltered and filtered; null where the server has no sample. */
export function liveRecall(text: string, collection: string): LiveRecall {
  const found: LiveRecall = { unfiltered: null, filtered: null };
  const samples = parseMetrics(text, new Set(['quiver_live_recall', 'quiver_live_recall_samples_total'])).filter((s) => s.labels.collection === collection);
  for (const kind of ['unfiltered', 'filtered'] as const) {
    const filtered = String(kind === 'filtered');
    const r = samples.find((s) => s.name === 'quiver_live_recall' && s.labels.filtered === filtered);
    const n = samples.find((s) => s.name === 'quiver_live_recall_samples_total' && s.labels.filtered === filtered);
    // A recall from no sample says nothing: shown as none.
    if (r !== undefined && Number.isFinite(r.value) && n?.value !== 0) found[kind] = { recall: r.value, samples: n === undefined ? null : n.value };
  }
  return found;
}

/** "unfiltered 0.97 (120 samples), filtered —", or "no samples yet". */
export function describeRecall(r: LiveRecall): string {
  if (r.unfiltered === null && r.filtered === null) return 'no samples yet';
  const one = (x: Recall | null): string =>
    x === null ? '—' : `${Number(x.recall.toFixed(3))}${x.samples === null ? '' : ` (${x.samples} sample${x.samples === 1 ? '' : 's'})`}`;
  return `unfiltered ${one(r.unfiltered)}, filtered ${one(r.filtered)}`;
}
