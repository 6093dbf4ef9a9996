// Keeps the k best (slot, score) pairs seen, as a binary heap with the worst kept pair on top.
// `better(a, b)` is true when score a beats score b under the vector's distance.

export class TopK {
  readonly #k: number;
  readonly #better: (a: number, b: number) => boolean;
  readonly #slots: number[] = [];
  readonly #scores: number[] = [];

  constructor(k: number, higherIsBetter: boolean) {
    this.#k = k;
    this.#better = higherIsBetter ? (a, b) => a > b : (a, b) => a < b;
  }

  get size(): number {
    return this.#slots.length;
  }

  /** The worst score kept, once full; the bar a new candidate must beat. */
  get bar(): number | undefined {
    return this.#slots.length === this.#k ? this.#scores[0] : undefined;
  }

  push(slot: number, score: number): void {
    if (this.#k <= 0) return;
    const s = this.#slots;
    const sc = this.#scores;
    if (s.length < this.#k) {
      s.push(slot);
      sc.push(score);
      this.#up(s.length - 1);
    } else if (this.#better(score, sc[0]!) || (score === sc[0]! && slot < s[0]!)) {
      s[0] = slot;
      sc[0] = score;
      this.#down(0);
    }
  }

  /** Best first. */
  drain(): { slot: number; score: number }[] {
    const out = this.#slots.map((slot, i) => ({ slot, score: this.#scores[i]! }));
    out.sort((a, b) => (this.#better(a.score, b.score) ? -1 : this.#better(b.score, a.score) ? 1 : a.slot - b.slot));
    return out;
  }

  // Heap order: the parent is worse than its children; among equal scores the larger slot is
  // worse, matching drain()'s order, so which tied item survives the cut does not depend on
  // the order of arrival.
  #worse(i: number, j: number): boolean {
    const a = this.#scores[i]!;
    const b = this.#scores[j]!;
    return this.#better(b, a) || (a === b && this.#slots[i]! > this.#slots[j]!);
  }

  #swap(i: number, j: number): void {
    const s = this.#slots;
    const sc = this.#scores;
    [s[i], s[j]] = [s[j]!, s[i]!];
    [sc[i], sc[j]] = [sc[j]!, sc[i]!];
  }

  #up(i: number): void {
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.#worse(i, p)) break;
      this.#swap(i, p);
      i = p;
    }
  }

  #down(i: number): void {
    const n = this.#slots.length;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < n && this.#worse(l, m)) m = l;
      if (r < n && this.#worse(r, m)) m = r;
      if (m === i) break;
      this.#swap(i, m);
      i = m;
    }
  }
}
