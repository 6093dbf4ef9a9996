// `quiver import FILE --collection NAME`: upserts the points of a JSONL/CSV file in batches.
// A line that is not a point, or a point the server refuses (a batch refused for its points is
// split in halves until the refused ones stand alone), is named and skipped; the rest are
// imported, and the run ends with how many were skipped (exit 1 when any was).
//
// Each batch is sent with wait=true, so an acknowledged batch is on disk; after each one a state
// file (FILE.quiver-import.json, or --state) records the byte offset and line just past it, with
// a digest of the last acknowledged record. A new run on the same file and collection resumes
// there; the digest catches a file that changed before that point. The state file is removed
// when the import completes. Upserts are idempotent (last write wins per id), so a batch sent
// again after a crash between acknowledgement and state write changes nothing.

import { createHash } from 'node:crypto';
import { existsSync, openSync, readFileSync, readSync, closeSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { QuiverClient, QuiverClientError } from '../client/index.js';
import { BadRecordError, formatOf, readRecords, type PointLine, type SourceRecord } from './records.js';
import { progress } from './progress.js';
import { CliError, withRetry } from './common.js';
import type { VectorParams, VectorsConfig } from '../shared/schemas/collections.js';

export interface ImportOptions {
  collection: string;
  format?: string;
  batchSize: number;
  create: boolean;
  distance: string;
  state?: string;
  restart: boolean;
}

interface ImportState {
  version: 1;
  file: string;
  collection: string;
  /** Byte offset and line number of the first record not yet acknowledged. */
  offset: number;
  line: number;
  points: number;
  /** sha256 of the bytes of the last acknowledged record, and where they start. */
  last_start: number;
  last_sha256: string;
}

const DISTANCES: VectorParams['distance'][] = ['Cosine', 'Dot', 'Euclid', 'Manhattan'];

function sha256(b: Uint8Array): string {
  return createHash('sha256').update(b).digest('hex');
}

function readRange(file: string, start: number, end: number): Buffer {
  const buf = Buffer.alloc(end - start);
  const fd = openSync(file, 'r');
  try {
    readSync(fd, buf, 0, buf.length, start);
  } finally {
    closeSync(fd);
  }
  return buf;
}

function loadState(path: string, file: string, collection: string): ImportState | null {
  if (!existsSync(path)) return null;
  let st: ImportState;
  try {
    st = JSON.parse(readFileSync(path, 'utf8')) as ImportState;
  } catch {
    throw new CliError(`state file ${path} is not readable JSON; remove it or pass --restart`);
  }
  if (st.version !== 1 || st.file !== file || st.collection !== collection) {
    throw new CliError(`state file ${path} belongs to another import (${st.file} into '${st.collection}'); remove it or pass --restart`);
  }
  const size = statSync(file).size;
  if (st.offset > size || sha256(readRange(file, st.last_start, st.offset)) !== st.last_sha256) {
    throw new CliError(`${file} changed before line ${st.line}, where the interrupted import stopped; pass --restart to import it from the start`);
  }
  return st;
}

function saveState(path: string, st: ImportState): void {
  // Written beside and renamed over: a crash leaves the old state or the new, never half of one.
  writeFileSync(`${path}.tmp`, JSON.stringify(st));
  renameSync(`${path}.tmp`, path);
}

/** Sizes of the vectors of the first point, as a collection's vectors config. */
function vectorsConfig(v: PointLine['vector'], distance: VectorParams['distance']): VectorsConfig {
  if (Array.isArray(v)) return { size: v.length, distance };
  const named: Record<string, VectorParams> = {};
  for (const [name, x] of Object.entries(v)) {
    if (!Array.isArray(x)) throw new CliError(`--create takes dense vectors only; vector '${name}' of the first point is not a list`);
    named[name] = { size: x.length, distance };
  }
  return named;
}

async function ensureCollection(client: QuiverClient, name: string, first: PointLine, distance: VectorParams['distance']): Promise<boolean> {
  if ((await withRetry(() => client.collectionExists(name))).exists) return false;
  await withRetry(() => client.createCollection(name, { vectors: vectorsConfig(first.vector, distance) }));
  return true;
}

export async function runImport(client: QuiverClient, fileArg: string, opts: ImportOptions, log: (s: string) => void): Promise<void> {
  const file = resolve(fileArg);
  if (!existsSync(file)) throw new CliError(`${fileArg}: no such file`);
  if (!Number.isInteger(opts.batchSize) || opts.batchSize < 1) throw new CliError('--batch-size must be a positive integer');
  const distance = DISTANCES.find((d) => d.toLowerCase() === opts.distance.toLowerCase());
  if (distance === undefined) throw new CliError(`--distance must be one of ${DISTANCES.join(', ')}`);
  const format = formatOf(file, opts.format);
  const statePath = resolve(opts.state ?? `${file}.quiver-import.json`);
  if (opts.restart) rmSync(statePath, { force: true });
  const state = loadState(statePath, file, opts.collection);
  if (state !== null) log(`resuming at line ${state.line} (${state.points} points already imported)`);

  if (!opts.create && !(await withRetry(() => client.collectionExists(opts.collection))).exists) {
    throw new CliError(`collection '${opts.collection}' does not exist; pass --create to create it from the first vector's size`);
  }
  let points = state?.points ?? 0;
  const size = statSync(file).size;
  const bar = progress(`import ${opts.collection}`, size, state?.offset ?? 0, points);
  type Good = Extract<SourceRecord, { point: PointLine }>;
  let batch: Good[] = [];
  // The last record read (a skipped one included): the state records the file read up to it.
  let tail: SourceRecord | null = null;
  const skipped: number[] = [];
  let checked = false;
  const skip = (line: number, why: string): void => {
    skipped.push(line);
    bar.note(`${why}: skipped`);
  };

  // Sends `recs`; a refusal that is about the points (400, 413, 422) is narrowed down by halves
  // to the points the server refuses alone, each skipped with its line named; the rest are sent.
  const send = async (recs: Good[]): Promise<void> => {
    try {
      await withRetry(() => client.upsert(opts.collection, { points: recs.map((r) => r.point) }, true));
      points += recs.length;
    } catch (e) {
      if (!(e instanceof QuiverClientError)) throw e;
      const first = recs[0]!;
      if (e.status !== 400 && e.status !== 413 && e.status !== 422) {
        throw new CliError(`lines ${first.line}-${recs[recs.length - 1]!.line}: the server answered ${e.status}: ${e.message}`);
      }
      if (recs.length === 1) return skip(first.line, `${file}:${first.line}: the server refused the point (${e.status}: ${e.message})`);
      const half = Math.ceil(recs.length / 2);
      await send(recs.slice(0, half));
      await send(recs.slice(half));
    }
  };

  const flush = async (): Promise<void> => {
    if (tail === null) return;
    if (batch.length > 0) {
      if (!checked) {
        checked = true;
        if (opts.create && (await ensureCollection(client, opts.collection, batch[0]!.point, distance))) log(`created collection '${opts.collection}'`);
      }
      await send(batch);
    }
    saveState(statePath, {
      version: 1,
      file,
      collection: opts.collection,
      offset: tail.end,
      line: tail.line + 1,
      points,
      last_start: tail.start,
      last_sha256: sha256(readRange(file, tail.start, tail.end)),
    });
    bar.update(tail.end, points);
    batch = [];
    tail = null;
  };

  try {
    for await (const rec of readRecords(file, format, state?.offset ?? 0, state?.line ?? 1)) {
      tail = rec;
      if (rec.point === null) skip(rec.line, rec.bad);
      else batch.push(rec);
      if (batch.length >= opts.batchSize) await flush();
    }
    await flush();
  } catch (e) {
    // The file cannot be read on: points read before it are still sent, so a resume starts there.
    if (e instanceof BadRecordError) {
      await flush();
      bar.stop();
      throw new CliError(`${e.message}; the points before it are imported, and a new run resumes here`);
    }
    bar.stop();
    throw e;
  }
  bar.stop();
  rmSync(statePath, { force: true });
  if (skipped.length === 0) return log(`imported ${points} points into '${opts.collection}'`);
  // Done, less the lines named above: a failure's exit code, so a script sees it.
  const lines = skipped.length <= 10 ? skipped.join(', ') : `${skipped.slice(0, 10).join(', ')}, ...`;
  throw new CliError(`imported ${points} points into '${opts.collection}'; skipped ${skipped.length} bad line${skipped.length === 1 ? '' : 's'} (${lines}), each named above`);
}
