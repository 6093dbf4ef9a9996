// From request shapes (REST JSON, and gRPC already converted to the same shapes by the gRPC
// adapter) to the internal forms the workers take: payload and vector selectors, checked ids,
// payloads and vectors, and each shard's points packed as Float32Array columns to be moved.

import { QuiverError } from '../../shared/errors.js';
import { parsePointId } from '../../shared/ids.js';
import { requireJsonPath } from '../../shared/json-path.js';
import type { MultiColumn, PointBatch, SparseColumn, SparseVec, VectorColumn } from '../../shared/protocol.js';
import type { WithPayload, WithVector } from '../../shared/schemas/common.js';
import type { VectorStruct } from '../../shared/schemas/points.js';
import { DEFAULT_VECTOR, isMulti, type QueryVector, type SparseVector, type CollectionMeta, type Payload, type PayloadSelector, type PointId, type VectorSelector } from '../../shared/types.js';
import { toByte } from '../index/multi-space.js';
import { embedDocument, isInferenceInput } from './bm25.js';

/** Selector keys are JSON paths, as filter keys are (src/shared/json-path.ts). */
function selectorKeys(keys: string[]): string[] {
  for (const key of keys) requireJsonPath(key, 'with_payload');
  return keys;
}

export function payloadSelector(w: WithPayload | undefined, dflt: boolean): PayloadSelector {
  if (w === undefined) return { kind: dflt ? 'all' : 'none' };
  if (typeof w === 'boolean') return { kind: w ? 'all' : 'none' };
  if (Array.isArray(w)) return { kind: 'include', keys: selectorKeys(w) };
  if ('include' in w) return { kind: 'include', keys: selectorKeys(Array.isArray(w.include) ? w.include : [w.include]) };
  return { kind: 'exclude', keys: selectorKeys(Array.isArray(w.exclude) ? w.exclude : [w.exclude]) };
}

/**
 * The one place that resolves `with_vectors`, Qdrant's alias of `with_vector`. Giving both is
 * refused as serde refuses a field given twice under its name and its alias.
 */
export function withVectorOf(r: { with_vector?: WithVector; with_vectors?: WithVector }): WithVector | undefined {
  if (r.with_vector !== undefined && r.with_vectors !== undefined) throw QuiverError.badInput('duplicate field `with_vector`');
  return r.with_vector ?? r.with_vectors;
}

/** A names list may only name vectors the collection has (dense or sparse), as Qdrant checks. */
export function vectorSelector(w: WithVector | undefined, meta: CollectionMeta): VectorSelector {
  if (w === undefined || w === false) return { kind: 'none' };
  if (w === true) return { kind: 'all' };
  for (const name of w) {
    if (!Object.hasOwn(meta.config.vectors, name) && !Object.hasOwn(meta.config.sparse_vectors, name)) {
      throw QuiverError.unknownVector(name);
    }
  }
  return { kind: 'names', names: [...new Set(w)] };
}

/** Deeper payloads are refused: they cost stack on every filter and copy, and no real document needs them. */
export const MAX_PAYLOAD_DEPTH = 64;

function depthOf(v: unknown, limit: number): number {
  if (v === null || typeof v !== 'object') return 0;
  if (limit <= 0) return 1;
  let d = 0;
  for (const child of Object.values(v as Record<string, unknown>)) d = Math.max(d, depthOf(child, limit - 1));
  return d + 1;
}

export function checkPayload(p: unknown, where: string): Payload | null {
  if (p === undefined || p === null) return null;
  if (typeof p !== 'object' || Array.isArray(p)) throw QuiverError.badInput(`${where}: payload must be a JSON object`);
  if (depthOf(p, MAX_PAYLOAD_DEPTH + 1) > MAX_PAYLOAD_DEPTH) {
    throw QuiverError.badInput(`${where}: payload is nested deeper than ${MAX_PAYLOAD_DEPTH} levels`);
  }
  return p as Payload;
}

/** Qdrant features Quiver does not offer yet are refused, never silently ignored. */
export function refuseUnsupported(req: object, fields: readonly string[]): void {
  for (const f of fields) {
    const v = (req as Record<string, unknown>)[f];
    if (v !== undefined && v !== null) throw QuiverError.badInput(`${f} is not supported by Quiver yet`);
  }
}

export function parseIds(raw: readonly unknown[]): PointId[] {
  return raw.map(parsePointId);
}

/**
 * Checks one vector against the collection's params; returns it as float32, normalised for
 * Cosine: in `into` when given (of the vector's size), else in a new array.
 */
export function checkVector(meta: CollectionMeta, name: string, v: readonly number[], into?: Float32Array): Float32Array {
  const params = meta.config.vectors[name];
  if (params === undefined) {
    if (meta.config.sparse_vectors[name] !== undefined) throw QuiverError.badInput(`Vector '${name}' is sparse: send {indices, values}`);
    throw QuiverError.unknownVector(name);
  }
  if (readsAsMulti(meta, name, v)) return checkMulti(meta, name, v);
  if (v.length !== params.size) {
    throw QuiverError.badInput(`Dimension mismatch for vector '${name}': expected ${params.size}, got ${v.length}`);
  }
  const out = into !== undefined && into.length === v.length ? into : new Float32Array(v.length);
  let norm = 0;
  for (let i = 0; i < v.length; i++) {
    const x = v[i]!;
    if (!Number.isFinite(x)) throw QuiverError.badInput(`Vector '${name}' has a non-finite value at index ${i}`);
    out[i] = x;
    if (!Number.isFinite(out[i]!)) throw QuiverError.badInput(`Vector '${name}' has a value outside the float32 range at index ${i}: ${x}`);
    norm += out[i]! * out[i]!;
  }
  if (params.distance === 'Cosine' && norm > 0) {
    const inv = 1 / Math.sqrt(norm);
    for (let i = 0; i < out.length; i++) out[i] = out[i]! * inv;
  }
  return out;
}

/**
 * Whether `v`, given for vector `name`, is read as a multivector: any value for a multivector
 * name (a plain vector is its one row), and rows given for any other name (checkMulti refuses them).
 */
export function readsAsMulti(meta: CollectionMeta, name: string, v: readonly unknown[]): boolean {
  return isMulti(meta, name) || Array.isArray(v[0]);
}

/** Qdrant's answer to a multivector where a plain or sparse vector goes, or the other way round. */
const WRONG_MULTI = 'Wrong input: Conversion between multi and regular vectors failed';

/**
 * Checks a multivector of vector `name` as Qdrant does (a plain vector is one sub-vector; every
 * sub-vector non-empty, of one length, the vector's size) and returns its sub-vectors packed:
 * float32, each normalised for Cosine, or cast as uint8 stores them (truncated, saturated).
 */
export function checkMulti(meta: CollectionMeta, name: string, v: readonly unknown[]): Float32Array {
  const params = meta.config.vectors[name];
  if (params === undefined) {
    if (meta.config.sparse_vectors[name] !== undefined) throw QuiverError.badInput(WRONG_MULTI);
    throw QuiverError.unknownVector(name);
  }
  if (params.multivector_config === undefined) throw QuiverError.badInput(WRONG_MULTI);
  const rows = (v.length > 0 && Array.isArray(v[0]) ? v : [v]) as unknown[];
  const dim = params.size;
  const out = new Float32Array(rows.length * dim);
  rows.forEach((row, r) => {
    if (!Array.isArray(row) || !row.every((x) => typeof x === 'number')) throw QuiverError.badInput(`Vector '${name}': a multivector is a list of vectors (arrays of numbers)`);
    if (rows.length > 1 && row.length === 0) throw QuiverError.unprocessable(`Validation error in JSON body: [vector '${name}': all vectors must be non-empty]`);
    if (row.length !== (rows[0] as unknown[]).length) {
      throw QuiverError.unprocessable(`Validation error in JSON body: [vector '${name}': all vectors must have the same dimension, found vector with dimension ${row.length}]`);
    }
    if (row.length !== dim) throw QuiverError.badInput(`Wrong input: Vector dimension error: expected dim: ${dim}, got ${row.length}`);
    const at = r * dim;
    let norm = 0;
    for (let i = 0; i < dim; i++) {
      const x = row[i] as number;
      if (!Number.isFinite(x) || !Number.isFinite(Math.fround(x))) throw QuiverError.badInput(`Vector '${name}' has a non-finite or out-of-range value at vector ${r}, index ${i}: ${x}`);
      out[at + i] = params.datatype === 'uint8' ? toByte(x) : x;
      norm += out[at + i]! * out[at + i]!;
    }
    if (params.distance === 'Cosine' && params.datatype !== 'uint8' && norm > 0) {
      const inv = 1 / Math.sqrt(norm);
      for (let i = at; i < at + dim; i++) out[i] = out[i]! * inv;
    }
  });
  return out;
}

/** Checks a sparse vector: a configured sparse name, equal lengths, unique u32 indices, finite values. Sorted by index. */
export function checkSparse(meta: CollectionMeta, name: string, v: SparseVector): SparseVec {
  if (meta.config.sparse_vectors[name] === undefined) {
    if (meta.config.vectors[name] !== undefined) throw QuiverError.badInput(`Vector '${name}' is dense: send an array of numbers`);
    throw QuiverError.unknownVector(name);
  }
  if (v.indices.length !== v.values.length) {
    throw QuiverError.badInput(`Sparse vector '${name}': indices and values must have the same length, got ${v.indices.length} and ${v.values.length}`);
  }
  const order = v.indices.map((_, i) => i).sort((a, b) => v.indices[a]! - v.indices[b]!);
  const indices = new Uint32Array(order.length);
  const values = new Float32Array(order.length);
  order.forEach((from, to) => {
    const idx = v.indices[from]!;
    const val = v.values[from]!;
    if (!Number.isInteger(idx) || idx < 0 || idx > 0xffff_ffff) throw QuiverError.badInput(`Sparse vector '${name}': index ${idx} is not an unsigned 32-bit integer`);
    if (!Number.isFinite(val)) throw QuiverError.badInput(`Sparse vector '${name}' has a non-finite value at index ${idx}`);
    if (!Number.isFinite(Math.fround(val))) throw QuiverError.badInput(`Sparse vector '${name}' has a value outside the float32 range at index ${idx}: ${val}`);
    if (to > 0 && indices[to - 1] === idx) throw QuiverError.badInput(`Sparse vector '${name}': index ${idx} appears more than once`);
    indices[to] = idx;
    values[to] = val;
  });
  return { indices, values };
}

type AnyVector = QueryVector;

/** A document's sparse vector for vector `name`; a dense vector cannot take one. */
function embedFor(meta: CollectionMeta, name: string, input: Record<string, unknown>): SparseVector {
  if (meta.config.vectors[name] !== undefined) throw QuiverError.badInput('Wrong input: Conversion between sparse and regular vectors failed');
  return embedDocument(input, 'document');
}

/** A point's vector struct as a map of names to vectors (a plain array is the unnamed vector). */
export function namedVectors(v: VectorStruct): Record<string, AnyVector> {
  return Array.isArray(v) ? { [DEFAULT_VECTOR]: v } : (v as Record<string, AnyVector>);
}

export interface PointInput {
  id: PointId;
  vectors: Record<string, Float32Array>;
  sparse: Record<string, SparseVec>;
  /** Multivectors, sub-vectors packed (checkMulti). */
  multi: Record<string, Float32Array>;
  payload: Payload | null;
}

/** Checks every point first, so a bad one rejects the request before anything is written. */
export function checkPoints(
  meta: CollectionMeta,
  raw: readonly { id: unknown; vector: VectorStruct; payload?: unknown }[],
  requireAll: boolean,
): PointInput[] {
  // Point i's dense vector `name` is row i of one array per name for the whole request, not an
  // array (and a malloc'd backing store) of its own: an ingest of 1,000-point batches made 1,000
  // small backing stores per batch, freed only at the thread's next collection, and glibc's arenas
  // kept the holes (issue 14's RssAnon right after an ingest). packBatch moves such a column as it is.
  const columns = new Map<string, Float32Array>();
  const rowOf = (name: string, i: number): Float32Array | undefined => {
    const size = meta.config.vectors[name]?.size;
    if (size === undefined || isMulti(meta, name)) return undefined;
    let col = columns.get(name);
    if (col === undefined) columns.set(name, (col = new Float32Array(raw.length * size)));
    return col.subarray(i * size, (i + 1) * size);
  };
  return raw.map((p, i) => {
    const id = parsePointId(p.id);
    const vectors: Record<string, Float32Array> = {};
    const sparse: Record<string, SparseVec> = {};
    const multi: Record<string, Float32Array> = {};
    // A BM25 document gives a sparse vector, which must be named (Qdrant's answer).
    if (isInferenceInput(p.vector)) throw QuiverError.badInput('Bad request: Sparse vector should be named');
    for (const [name, v] of Object.entries(namedVectors(p.vector))) {
      if (Array.isArray(v) && readsAsMulti(meta, name, v)) multi[name] = checkMulti(meta, name, v);
      else if (Array.isArray(v)) vectors[name] = checkVector(meta, name, v, rowOf(name, i));
      else if (isInferenceInput(v)) sparse[name] = checkSparse(meta, name, embedFor(meta, name, v));
      else sparse[name] = checkSparse(meta, name, v as SparseVector);
    }
    // An update of vectors with none reads, but breaks Qdrant's validation: a 422, in its words.
    if (requireAll && Object.keys(vectors).length + Object.keys(sparse).length + Object.keys(multi).length === 0) {
      throw QuiverError.unprocessable(`Validation error in JSON body: [points[${i}].vector: must specify vectors to update for point]`);
    }
    return { id, vectors, sparse, multi, payload: checkPayload(p.payload, `points[${i}]`) };
  });
}

/**
 * The array whose consecutive rows are `points`' vectors `name`, in order and nothing else, when
 * there is one (then it can be moved as the batch's column); else null.
 */
function wholeColumn(points: readonly PointInput[], name: string, size: number): Float32Array | null {
  const first = points[0]?.vectors[name];
  if (first === undefined || first.byteOffset !== 0 || !(first.buffer instanceof ArrayBuffer)) return null;
  const buffer = first.buffer;
  if (buffer.byteLength !== points.length * size * 4) return null;
  for (let i = 0; i < points.length; i++) {
    const v = points[i]!.vectors[name];
    if (v === undefined || v.buffer !== buffer || v.byteOffset !== i * size * 4 || v.length !== size) return null;
  }
  return new Float32Array(buffer);
}

/**
 * Packs the points of one shard into a batch whose vector columns can be moved to the worker.
 * A column may be moved as it is (see wholeColumn): `points`' vectors are not to be read after.
 */
export function packBatch(meta: CollectionMeta, points: readonly PointInput[]): { batch: PointBatch; transfer: ArrayBuffer[] } {
  const vectors: Record<string, VectorColumn> = {};
  const transfer: ArrayBuffer[] = [];
  for (const [name, params] of Object.entries(meta.config.vectors)) {
    if (params.multivector_config !== undefined) continue;
    const having = points.filter((p) => p.vectors[name] !== undefined).length;
    if (having === 0) continue;
    const whole = wholeColumn(points, name, params.size);
    if (whole !== null) {
      // Every point's row, in order, is the whole of one array (checkPoints' column for a request
      // that goes to one shard): moved as it is, not copied.
      vectors[name] = { data: whole, present: null };
      transfer.push(whole.buffer as ArrayBuffer);
      continue;
    }
    const data = new Float32Array(having * params.size);
    const present = having === points.length ? null : new Uint8Array(points.length);
    let row = 0;
    points.forEach((p, i) => {
      const v = p.vectors[name];
      if (v === undefined) return;
      data.set(v, row * params.size);
      row++;
      if (present !== null) present[i] = 1;
    });
    vectors[name] = { data, present };
    transfer.push(data.buffer as ArrayBuffer);
  }
  const sparse: Record<string, SparseColumn> = {};
  for (const name of Object.keys(meta.config.sparse_vectors)) {
    if (!points.some((p) => p.sparse[name] !== undefined)) continue;
    const offsets = new Int32Array(points.length + 1);
    const present = new Uint8Array(points.length);
    let total = 0;
    points.forEach((p, i) => {
      const v = p.sparse[name];
      if (v !== undefined) {
        present[i] = 1;
        total += v.indices.length;
      }
      offsets[i + 1] = total;
    });
    const indices = new Uint32Array(total);
    const values = new Float32Array(total);
    points.forEach((p, i) => {
      const v = p.sparse[name];
      if (v === undefined) return;
      indices.set(v.indices, offsets[i]!);
      values.set(v.values, offsets[i]!);
    });
    sparse[name] = { offsets, indices, values, present };
    transfer.push(offsets.buffer as ArrayBuffer, indices.buffer as ArrayBuffer, values.buffer as ArrayBuffer, present.buffer as ArrayBuffer);
  }
  const multi = packMulti(meta, points, transfer);
  return { batch: { ids: points.map((p) => p.id), payloads: points.map((p) => p.payload), vectors, sparse, ...(multi === null ? {} : { multi }) }, transfer };
}

/** The batch's multivector columns (null: none given), their buffers added to `transfer`. */
function packMulti(meta: CollectionMeta, points: readonly PointInput[], transfer: ArrayBuffer[]): Record<string, MultiColumn> | null {
  let out: Record<string, MultiColumn> | null = null;
  for (const [name, params] of Object.entries(meta.config.vectors)) {
    if (params.multivector_config === undefined || !points.some((p) => p.multi[name] !== undefined)) continue;
    const offsets = new Int32Array(points.length + 1);
    const present = new Uint8Array(points.length);
    points.forEach((p, i) => {
      const v = p.multi[name];
      if (v !== undefined) present[i] = 1;
      offsets[i + 1] = offsets[i]! + (v?.length ?? 0);
    });
    const data = new Float32Array(offsets[points.length]!);
    points.forEach((p, i) => {
      const v = p.multi[name];
      if (v !== undefined) data.set(v, offsets[i]!);
    });
    (out ??= {})[name] = { offsets, data, present };
    transfer.push(offsets.buffer as ArrayBuffer, data.buffer as ArrayBuffer, present.buffer as ArrayBuffer);
  }
  return out;
}

