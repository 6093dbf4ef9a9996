// Which labels an hnswlib graph holds and in which state (absent, live, marked deleted), one byte
// per label in a typed array rather than Sets, with the live and held counts: shared by the float32
// graph (hnsw.ts) and the quantized one (quantized-graph.ts), whose hnswlib cores keep the same
// marks but answer no such questions cheaply.

import { grownCapacity } from '../storage/capacity.js';

/** Labels a new graph has room for. */
export const INITIAL_CAPACITY = 256;

const ABSENT = 0;
const LIVE = 1;
const DELETED = 2;

export class LabelStates {
  #state: Uint8Array;
  /** Labels live in the graph. */
  live = 0;
  /** Labels the graph holds, live or marked deleted (hnswlib never frees a label's row). */
  held = 0;

  /** Labels the graph has room for (hnswlib's max elements). */
  capacity: number;

  constructor(capacity: number) {
    this.capacity = capacity;
    this.#state = new Uint8Array(capacity);
  }

  /** Makes room for `label`, growing the graph by 25% steps (`resize` grows hnswlib's). */
  makeRoom(label: number, resize: (capacity: number) => void): void {
    if (label < this.capacity) return;
    const grown = grownCapacity(this.capacity, label + 1, INITIAL_CAPACITY);
    resize(grown);
    this.capacity = grown;
    this.grow(grown);
  }

  /** The states of a saved graph: its labels, and those it had marked deleted. */
  static restored(capacity: number, labels: Iterable<number>, deleted: Iterable<number>): LabelStates {
    const s = new LabelStates(capacity);
    for (const label of labels) {
      s.grow(label + 1);
      if (s.#state[label] !== ABSENT) continue;
      s.held++;
      s.#state[label] = LIVE;
      s.live++;
    }
    for (const label of deleted) s.markDeleted(label);
    return s;
  }

  /** Room for labels below `capacity`. */
  grow(capacity: number): void {
    if (capacity <= this.#state.length) return;
    const grown = new Uint8Array(capacity);
    grown.set(this.#state);
    this.#state = grown;
  }

  isLive(label: number): boolean {
    return this.#state[label] === LIVE;
  }

  /** The label was added (or re-added) to the graph. */
  markLive(label: number): void {
    const was = this.#state[label];
    if (was === LIVE) return;
    if (was === ABSENT) this.held++;
    this.#state[label] = LIVE;
    this.live++;
  }

  /** True when the label was live and is now marked deleted (the caller marks it in hnswlib). */
  markDeleted(label: number): boolean {
    if (this.#state[label] !== LIVE) return false;
    this.#state[label] = DELETED;
    this.live--;
    return true;
  }

  /** Every label held, live or marked deleted (what a restore needs to know). */
  labels(): number[] {
    const out: number[] = [];
    for (let l = 0; l < this.#state.length; l++) if (this.#state[l] !== ABSENT) out.push(l);
    return out;
  }

  /** Labels marked deleted (saved beside the graph: hnswlib's file keeps the marks, not a list). */
  deletedLabels(): number[] {
    const out: number[] = [];
    for (let l = 0; l < this.#state.length; l++) if (this.#state[l] === DELETED) out.push(l);
    return out;
  }
}
