// Brute-force nearest neighbours in float64, with Qdrant's scoring, to check the server against.

export type Dist = 'Cosine' | 'Dot' | 'Euclid' | 'Manhattan';

function norm(v: number[]): number[] {
  const f = v.map((x) => Math.fround(x));
  const n = Math.sqrt(f.reduce((s, x) => s + x * x, 0));
  return n === 0 ? f : f.map((x) => Math.fround(x / n));
}

export function score(dist: Dist, q: number[], v: number[]): number {
  const a = dist === 'Cosine' ? norm(q) : q.map(Math.fround);
  const b = dist === 'Cosine' ? norm(v) : v.map(Math.fround);
  let s = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (dist === 'Euclid') s += (x - y) ** 2;
    else if (dist === 'Manhattan') s += Math.abs(x - y);
    else s += x * y;
  }
  return dist === 'Euclid' ? Math.sqrt(s) : s;
}

export function higherIsBetter(dist: Dist): boolean {
  return dist === 'Cosine' || dist === 'Dot';
}

/** Ids of the k best points, best first, ties by id. */
export function exactTopK(dist: Dist, q: number[], points: { id: number; vector: number[] }[], k: number): { id: number; score: number }[] {
  const scored = points.map((p) => ({ id: p.id, score: score(dist, q, p.vector) }));
  const dir = higherIsBetter(dist) ? -1 : 1;
  scored.sort((a, b) => (a.score !== b.score ? dir * (a.score - b.score) : a.id - b.id));
  return scored.slice(0, k);
}
