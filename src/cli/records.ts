// The point files that `quiver import` reads and `quiver export` writes.
//
//   JSONL / NDJSON: one JSON object a line, {"id": 1, "vector": [...], "payload": {...}}; blank
//                   lines are skipped.
//   CSV:            a header naming the columns `id`, `vector` and optionally `payload`; vector
//                   and payload cells hold JSON (`"[0.1,0.2]"`, `"{""city"":""Berlin""}"`). An id
//                   cell of digits is an integer id, anything else a UUID string.
//
// `vector` is a list of numbers (the unnamed vector) or an object of named vectors, as the
// Qdrant upsert body takes it. Every record carries its byte range in the file so an import can
// resume exactly after the last acknowledged record.

import { createReadStream } from 'node:fs';
import { parse } from 'csv-parse';
import { stringify } from 'csv-stringify/sync';
import type { VectorStruct } from '../shared/schemas/points.js';
import type { Payload, PointId } from '../shared/types.js';

export type Format = 'jsonl' | 'csv';

export type VectorValue = VectorStruct;

export interface PointLine {
  id: PointId;
  vector: VectorValue;
  payload?: Payload;
}

interface Placed {
  /** 1-based line of the record's first line in the file. */
  line: number;
  /** Byte offsets: the record is [start, end), its line break included. */
  start: number;
  end: number;
}

/** A point read from the file, or a record that is not one (`bad`: why, naming file and line), which a reader skips. */
export type SourceRecord = (Placed & { point: PointLine; bad?: undefined }) | (Placed & { point: null; bad: string });

/** A file that cannot be read on (not a format, no header, a CSV row the parser cannot split); the message names file and line. */
export class BadRecordError extends Error {}

/** A record yielded whole or as bad: the message of a BadRecordError `toPoint` or a cell raised. */
function record(placed: Placed, read: () => PointLine): SourceRecord {
  try {
    return { ...placed, point: read() };
  } catch (e) {
    if (!(e instanceof BadRecordError)) throw e;
    return { ...placed, point: null, bad: e.message };
  }
}

export function formatOf(file: string, explicit: string | undefined): Format {
  const f = (explicit ?? (/\.csv$/i.test(file) ? 'csv' : 'jsonl')).toLowerCase();
  if (f === 'jsonl' || f === 'ndjson') return 'jsonl';
  if (f === 'csv') return 'csv';
  throw new BadRecordError(`unknown format '${explicit ?? ''}': expected jsonl, ndjson or csv`);
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** Checks the shape the CLI relies on; the server validates the rest (sizes, names, ids). */
export function toPoint(v: unknown, where: string): PointLine {
  if (!isRecord(v)) throw new BadRecordError(`${where}: expected a JSON object {id, vector, payload}`);
  const { id, vector, payload } = v;
  if (!(typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id) && id >= 0))) {
    throw new BadRecordError(`${where}: 'id' must be an unsigned integer or a UUID string`);
  }
  const isList = Array.isArray(vector) && vector.every((x) => typeof x === 'number');
  if (!isList && !isRecord(vector)) throw new BadRecordError(`${where}: 'vector' must be a list of numbers or an object of named vectors`);
  if (payload !== undefined && payload !== null && !isRecord(payload)) throw new BadRecordError(`${where}: 'payload' must be an object`);
  return { id, vector: vector as VectorValue, ...(isRecord(payload) ? { payload: payload as Payload } : {}) };
}

/** The lines of a file from byte `offset` on, each with its byte range (line break included). */
async function* lines(file: string, offset: number): AsyncGenerator<{ text: string; start: number; end: number }> {
  // Split on the bytes, not on decoded text, so offsets stay exact whatever the line breaks
  // (LF or CRLF) and the characters (UTF-8 sequences never contain the byte 0x0a).
  let pos = offset;
  let rest: Buffer = Buffer.alloc(0);
  for await (const chunk of createReadStream(file, { start: offset }) as AsyncIterable<Buffer>) {
    let buf = rest.length > 0 ? Buffer.concat([rest, chunk]) : chunk;
    let nl: number;
    while ((nl = buf.indexOf(0x0a)) !== -1) {
      yield { text: buf.subarray(0, nl).toString('utf8'), start: pos, end: pos + nl + 1 };
      pos += nl + 1;
      buf = buf.subarray(nl + 1);
    }
    rest = Buffer.from(buf);
  }
  if (rest.length > 0) yield { text: rest.toString('utf8'), start: pos, end: pos + rest.length };
}

/** The records of a JSONL file from byte `offset` (a record boundary) on; `firstLine` is that record's line number. */
async function* jsonlRecords(file: string, offset: number, firstLine: number): AsyncGenerator<SourceRecord> {
  let line = firstLine - 1;
  for await (const { text, start, end } of lines(file, offset)) {
    line++;
    if (text.trim() === '') continue;
    yield record({ line, start, end }, () => {
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch (e) {
        throw new BadRecordError(`${file}:${line}: not valid JSON (${e instanceof Error ? e.message : String(e)})`);
      }
      return toPoint(value, `${file}:${line}`);
    });
  }
}

function parseJsonCell(cell: string | undefined, what: string, where: string): unknown {
  try {
    return JSON.parse(cell ?? '');
  } catch {
    throw new BadRecordError(`${where}: the ${what} cell is not valid JSON`);
  }
}

async function csvHeader(file: string): Promise<{ columns: string[]; bytes: number }> {
  const parser = createReadStream(file).pipe(parse({ to: 1, info: true, bom: true }));
  for await (const row of parser as AsyncIterable<{ record: string[]; info: { bytes: number } }>) {
    parser.destroy();
    return { columns: row.record, bytes: row.info.bytes };
  }
  throw new BadRecordError(`${file}: empty CSV file (expected a header with id and vector)`);
}

async function* csvRecords(file: string, offset: number, firstLine: number): AsyncGenerator<SourceRecord> {
  const header = await csvHeader(file);
  if (!header.columns.includes('id') || !header.columns.includes('vector')) {
    throw new BadRecordError(`${file}:1: the CSV header must name the columns id and vector (found: ${header.columns.join(', ')})`);
  }
  const from = Math.max(offset, header.bytes);
  const base = offset > 0 ? firstLine : 2;
  // A row the parser cannot read (more or fewer cells than the header, a stray quote) is a record
  // to skip, not the end of the file: the parser reports it and reads on. Lines are the parser's
  // count from `from` (base + count - 1), so a skipped row's lines are counted too.
  const skips: { line: number; message: string }[] = [];
  const parser = createReadStream(file, { start: from }).pipe(
    parse({ columns: header.columns, info: true, raw: true, skip_empty_lines: true, relax_column_count: true, skip_records_with_error: true }),
  );
  let lastSkip = 0;
  parser.on('skip', (err: Error & { lines?: number }) => {
    const line = base + (err.lines ?? 1) - 1;
    // After a stray quote the parser may report the same line again (an unclosed quote): once is enough.
    if (line !== lastSkip) skips.push({ line, message: err.message });
    lastSkip = line;
  });
  // A skipped row has no exact bytes: it is placed at the end of the record before it (a resume re-reads it).
  let lastEnd = from;
  const skipped = function* (before: number): Generator<SourceRecord> {
    while (skips.length > 0 && skips[0]!.line < before) {
      const s = skips.shift()!;
      yield { point: null, bad: `${file}:${s.line}: ${s.message}`, line: s.line, start: lastEnd, end: lastEnd };
    }
  };
  try {
    for await (const row of parser as AsyncIterable<{ record: Record<string, string>; raw: string; info: { bytes: number; lines: number; error?: { code: string; record?: unknown[] } } }>) {
      const end = from + row.info.bytes;
      const start = end - Buffer.byteLength(row.raw);
      // The row's first line: the parser's count at its end, less the line breaks inside it.
      const line = base + row.info.lines - (row.raw.match(/\n/g)?.length ?? 1);
      yield* skipped(line);
      const where = `${file}:${line}`;
      const r = row.record;
      const cells = row.info.error?.code === 'CSV_RECORD_INCONSISTENT_COLUMNS' ? (row.info.error.record?.length ?? 0) : null;
      yield record({ line, start, end }, () => {
        if (cells !== null) throw new BadRecordError(`${where}: ${cells} cells where the header names ${header.columns.length}`);
        const idCell = r.id ?? '';
        const id: PointId = /^\d+$/.test(idCell) ? Number(idCell) : idCell;
        const value: Record<string, unknown> = { id, vector: parseJsonCell(r.vector, 'vector', where) };
        if (r.payload !== undefined && r.payload !== '') value.payload = parseJsonCell(r.payload, 'payload', where);
        return toPoint(value, where);
      });
      lastEnd = end;
    }
    yield* skipped(Number.POSITIVE_INFINITY);
  } catch (e) {
    if (e instanceof BadRecordError) throw e;
    const at = typeof (e as { lines?: unknown }).lines === 'number' ? base + (e as { lines: number }).lines - 1 : base;
    throw new BadRecordError(`${file}:${at}: ${e instanceof Error ? e.message : String(e)}`);
  }
}

export function readRecords(file: string, format: Format, offset = 0, firstLine = 1): AsyncGenerator<SourceRecord> {
  return format === 'csv' ? csvRecords(file, offset, firstLine) : jsonlRecords(file, offset, firstLine);
}

/** One point as a line of the format (with its line break). */
export function formatPoint(p: PointLine, format: Format): string {
  if (format === 'jsonl') return `${JSON.stringify(p)}\n`;
  return stringify([[typeof p.id === 'number' ? String(p.id) : p.id, JSON.stringify(p.vector), p.payload === undefined ? '' : JSON.stringify(p.payload)]]);
}

export function formatHeader(format: Format): string {
  return format === 'csv' ? stringify([['id', 'vector', 'payload']]) : '';
}
