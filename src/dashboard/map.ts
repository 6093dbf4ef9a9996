// The Map tab: a sample of a collection's points projected to 2-D by PCA (ml-pca, bundled at
// build time), drawn on a canvas and coloured by a payload field the user picks. Hovering a
// point shows its id and payload; clicking it finds its neighbours. The projected points are
// also listed in a table (id, category, colour, canvas position), which the tests read too.

import { PCA } from 'ml-pca';
import { attempt, data, enc } from './api.js';
import { $, fillSelect, fillTable, h, show } from './dom.js';
import type { Point } from './points.js';
import { findSimilar } from './query.js';

interface Placed {
  point: Point;
  x: number;
  y: number;
  category: string;
}

// Distinct hues for the most common values; the rest share OTHER.
const PALETTE = ['#4e79a7', '#f28e2b', '#e15759', '#59a14f', '#b07aa1', '#edc948', '#76b7b2', '#ff9da7', '#9c755f', '#17becf'];
const OTHER = '#a0a4ab';
const NONE_FIELD = '';
const RADIUS = 4;
const PAD = 16;

let placed: Placed[] = [];
let colours = new Map<string, string>();
let collection = '';

/** A point's vector for the map: the named one, else the unnamed, else its first dense one. */
function vectorOf(p: Point, using: string): number[] | null {
  const dense = (x: unknown): x is number[] => Array.isArray(x) && x.length > 0 && x.every((y) => typeof y === 'number');
  const v = p.vector;
  if (dense(v)) return using === '' ? v : null;
  if (typeof v !== 'object' || v === null) return null;
  const named = v as Record<string, unknown>;
  if (using !== '') return dense(named[using]) ? named[using] : null;
  return Object.values(named).find(dense) ?? null;
}

function categoryOf(p: Point, field: string): string {
  if (field === NONE_FIELD) return 'all points';
  const v = p.payload?.[field];
  if (v === undefined || v === null) return '(none)';
  return typeof v === 'object' ? JSON.stringify(v) : String(v);
}

/** The 2-D principal-component scores of the rows, and the share of the variance each keeps. */
function project(rows: number[][]): { xy: [number, number][]; explained: number[] } {
  const pca = new PCA(rows);
  const components = Math.min(2, rows[0]?.length ?? 0, rows.length);
  const scores = pca.predict(rows, { nComponents: components }).to2DArray();
  // Zero variance (all points alike) gives NaN scores: they all sit in the middle.
  const finite = (x: number | undefined): number => (x !== undefined && Number.isFinite(x) ? x : 0);
  return { xy: scores.map((s) => [finite(s[0]), finite(s[1])]), explained: pca.getExplainedVariance().slice(0, 2) };
}

/** Scores to canvas pixels, keeping the aspect ratio, y pointing up. */
function place(xy: [number, number][], width: number, height: number): [number, number][] {
  const xs = xy.map((p) => p[0]);
  const ys = xy.map((p) => p[1]);
  const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const scale = Math.min((width - 2 * PAD) / (x1 - x0 || 1), (height - 2 * PAD) / (y1 - y0 || 1));
  const cx = (width - (x1 - x0) * scale) / 2;
  const cy = (height - (y1 - y0) * scale) / 2;
  return xy.map(([x, y]) => [Math.round(cx + (x - x0) * scale), Math.round(height - cy - (y - y0) * scale)]);
}

function canvas(): HTMLCanvasElement {
  return $<HTMLCanvasElement>('map-canvas');
}

function draw(): void {
  const c = canvas();
  const ctx = c.getContext('2d');
  if (ctx === null) throw new Error('this browser cannot draw on a canvas');
  const field = $<HTMLSelectElement>('map-color').value;
  const counts = new Map<string, number>();
  for (const p of placed) {
    p.category = categoryOf(p.point, field);
    counts.set(p.category, (counts.get(p.category) ?? 0) + 1);
  }
  const ranked = [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  colours = new Map(ranked.map(([cat], i) => [cat, PALETTE[i] ?? OTHER]));
  const dpr = window.devicePixelRatio || 1;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, c.width, c.height);
  for (const p of placed) {
    ctx.fillStyle = colours.get(p.category) ?? OTHER;
    ctx.beginPath();
    ctx.arc(p.x, p.y, RADIUS, 0, 2 * Math.PI);
    ctx.fill();
  }
  $('map-legend').replaceChildren(
    ...ranked.map(([cat, n]) => {
      const swatch = h('span', { class: 'swatch' });
      // CSSOM, not a style attribute: the page's CSP allows the one, not the other.
      swatch.style.background = colours.get(cat) ?? OTHER;
      return h('li', { 'data-category': cat, 'data-color': colours.get(cat) ?? OTHER }, swatch, `${cat} (${n})`);
    }),
  );
  fillTable(
    'map-points',
    placed.map((p) =>
      h(
        'tr',
        { 'data-id': String(p.point.id), 'data-x': String(p.x), 'data-y': String(p.y), 'data-category': p.category, 'data-color': colours.get(p.category) ?? OTHER },
        h('td', { class: 'num' }, String(p.point.id)),
        h('td', {}, p.category),
        h('td', { class: 'num' }, `${p.x}, ${p.y}`),
      ),
    ),
  );
}

export async function drawMap(): Promise<void> {
  const name = $<HTMLSelectElement>('map-collection').value;
  if (name === '') throw new Error('no collection selected');
  const limit = Math.max(2, Number($<HTMLInputElement>('map-sample').value) || 500);
  const using = $<HTMLInputElement>('map-using').value.trim();
  // A random sample (Qdrant's `sample: random` query), not the first points by id.
  const res = await data<{ points: Point[] }>('POST', `/collections/${enc(name)}/points/query`, {
    query: { sample: 'random' },
    limit,
    with_payload: true,
    with_vector: using === '' ? true : [using],
  });
  const sample = res.points.map((p) => ({ p, v: vectorOf(p, using) })).filter((s): s is { p: Point; v: number[] } => s.v !== null);
  const dims = sample[0]?.v.length ?? 0;
  const rows = sample.filter((s) => s.v.length === dims);
  if (rows.length < 2) throw new Error(`${name} has ${rows.length} point${rows.length === 1 ? '' : 's'} with a dense vector${using === '' ? '' : ` named ${using}`}; a map needs two or more`);
  const { xy, explained } = project(rows.map((s) => s.v));
  const c = canvas();
  const width = c.clientWidth || 720;
  const height = c.clientHeight || 480;
  const dpr = window.devicePixelRatio || 1;
  c.width = Math.round(width * dpr);
  c.height = Math.round(height * dpr);
  placed = place(xy, width, height).map(([x, y], i) => ({ point: rows[i]?.p ?? { id: 0 }, x, y, category: '' }));
  collection = name;
  const fields = [...new Set(rows.flatMap((s) => Object.keys(s.p.payload ?? {})))].sort();
  const pick = $<HTMLSelectElement>('map-color');
  const keep = pick.value;
  fillSelect('map-color', fields);
  pick.prepend(h('option', { value: NONE_FIELD }, '(one colour)'));
  pick.value = fields.includes(keep) ? keep : NONE_FIELD;
  draw();
  const share = explained.map((e, i) => `PC${i + 1} ${(e * 100).toFixed(0)}%`).join(', ');
  $('map-info').textContent = `${name}: a random ${rows.length} points of ${dims} dimensions, by PCA (${share} of the variance).`;
  $('map-info').dataset.points = String(rows.length);
  show('ok', `Map of ${rows.length} points from ${name}.`);
}

/** Forgets the map (at sign-out): its points, canvas, legend and list. */
export function clearMap(): void {
  placed = [];
  const c = canvas();
  c.getContext('2d')?.clearRect(0, 0, c.width, c.height);
  $('map-legend').replaceChildren();
  fillTable('map-points', []);
  $('map-tip').hidden = true;
}

/** The drawn point under the cursor, if any (the last drawn wins, as on screen). */
function hit(ev: MouseEvent): Placed | null {
  let best: Placed | null = null;
  let bestD = (RADIUS + 3) ** 2;
  for (const p of placed) {
    const d = (p.x - ev.offsetX) ** 2 + (p.y - ev.offsetY) ** 2;
    if (d <= bestD) {
      best = p;
      bestD = d;
    }
  }
  return best;
}

export function wireMap(): void {
  const c = canvas();
  const tip = $('map-tip');
  c.addEventListener('mousemove', (ev) => {
    const p = hit(ev);
    c.classList.toggle('pointing', p !== null);
    if (p === null) {
      tip.hidden = true;
      return;
    }
    tip.replaceChildren(h('strong', {}, `id ${String(p.point.id)}`), h('span', { class: 'muted' }, ` · ${p.category}`), h('pre', {}, JSON.stringify(p.point.payload ?? {}, null, 2)));
    tip.dataset.id = String(p.point.id);
    tip.hidden = false;
    // Beside the point, on whichever side keeps the tip over the canvas.
    const left = p.x + 12 + tip.offsetWidth > c.clientWidth ? p.x - 12 - tip.offsetWidth : p.x + 12;
    const top = p.y + 12 + tip.offsetHeight > c.clientHeight ? p.y - 12 - tip.offsetHeight : p.y + 12;
    tip.style.left = `${Math.max(0, left)}px`;
    tip.style.top = `${Math.max(0, top)}px`;
  });
  c.addEventListener('mouseleave', () => {
    tip.hidden = true;
  });
  c.addEventListener('click', (ev) => {
    const p = hit(ev);
    if (p !== null) void attempt('Find similar', () => findSimilar(collection, p.point.id));
  });
  $('map-color').addEventListener('change', () => {
    if (placed.length > 0) draw();
  });
}
