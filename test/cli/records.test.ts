// The point files of import/export: records with exact byte ranges (what resume relies on),
// CSV cells, line numbers in messages; and the CLI's retry of 503.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { QuiverClientError } from '../../src/client/index.js';
import { withRetry } from '../../src/cli/common.js';
import { formatHeader, formatPoint, readRecords, type Format, type SourceRecord } from '../../src/cli/records.js';

const dir = mkdtempSync(join(tmpdir(), 'quiver-records-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function all(file: string, format: Format, offset = 0, line = 1): Promise<SourceRecord[]> {
  const out: SourceRecord[] = [];
  for await (const r of readRecords(file, format, offset, line)) out.push(r);
  return out;
}

describe('JSONL records', () => {
  it('gives each record its exact byte range with LF, CRLF, blank lines, UTF-8 and no final newline', async () => {
    const file = join(dir, 'a.jsonl');
    const text = '{"id":1,"vector":[1]}\r\n\n{"id":2,"vector":[2],"payload":{"city":"Zürich"}}\n{"id":"u-3","vector":{"a":[3]}}';
    writeFileSync(file, text);
    const recs = await all(file, 'jsonl');
    expect(recs.map((r) => [r.point!.id, r.line])).toEqual([[1, 1], [2, 3], ['u-3', 4]]);
    const bytes = readFileSync(file);
    expect(recs.map((r) => bytes.subarray(r.start, r.end).toString())).toEqual([
      '{"id":1,"vector":[1]}\r\n',
      '{"id":2,"vector":[2],"payload":{"city":"Zürich"}}\n',
      '{"id":"u-3","vector":{"a":[3]}}',
    ]);
    // Reading again from a record's end (what a resume does) yields the rest, same lines.
    const rest = await all(file, 'jsonl', recs[0]!.end, 2);
    expect(rest.map((r) => [r.point!.id, r.line, r.start])).toEqual([[2, 3, recs[1]!.start], ['u-3', 4, recs[2]!.start]]);
  });

  it('names file and line of a bad record, and reads on past it', async () => {
    const file = join(dir, 'b.jsonl');
    for (const [line, msg] of [
      ['[1,2]', 'expected a JSON object {id, vector, payload}'],
      ['{"id":1.5,"vector":[1]}', "'id' must be an unsigned integer or a UUID string"],
      ['{"id":1,"vector":"x"}', "'vector' must be a list of numbers or an object of named vectors"],
      ['{"id":1,"vector":[1],"payload":[1]}', "'payload' must be an object"],
      ['{"id":1,', 'not valid JSON ('],
    ] as const) {
      writeFileSync(file, `{"id":0,"vector":[0]}\n${line}\n{"id":3,"vector":[3]}\n`);
      const recs = await all(file, 'jsonl');
      expect(recs.map((r) => r.point?.id ?? null)).toEqual([0, null, 3]);
      expect(recs[1]!.bad).toContain(`${file}:2: ${msg}`);
      expect(recs[2]!.line).toBe(3);
    }
  });
});

describe('CSV records', () => {
  it('reads JSON cells, integer and string ids, quoted line breaks, and resumes at a record end', async () => {
    const file = join(dir, 'a.csv');
    writeFileSync(file, 'id,vector,payload\n1,"[1,\n2]","{""note"":""a, b""}"\nabc,"[3,4]",\n5,"[5,6]","{}"\n');
    const recs = await all(file, 'csv');
    expect(recs.map((r) => [r.point!.id, r.line, r.point!.payload])).toEqual([[1, 2, { note: 'a, b' }], ['abc', 4, undefined], [5, 5, {}]]);
    const rest = await all(file, 'csv', recs[0]!.end, 4);
    expect(rest.map((r) => [r.point!.id, r.line, r.start])).toEqual([['abc', 4, recs[1]!.start], [5, 5, recs[2]!.start]]);
  });

  it('names file and line of a bad cell or a row the parser cannot read: records to skip, the reading goes on', async () => {
    const file = join(dir, 'b.csv');
    writeFileSync(file, 'id,vector\n1,"[1"\n2,"[2]"\n');
    const recs = await all(file, 'csv');
    expect(recs.map((r) => [r.line, r.bad ?? null, r.point?.id ?? null])).toEqual([
      [2, `${file}:2: the vector cell is not valid JSON`, null],
      [3, null, 2],
    ]);
    // A row with a cell too many, a stray quote: records to skip, named by line.
    writeFileSync(file, 'id,vector\n1,"[1]"\n2,"[2]",extra\n3,"[3]"\n');
    expect((await all(file, 'csv')).map((r) => r.bad ?? r.point?.id)).toEqual([1, `${file}:3: 3 cells where the header names 2`, 3]);
    writeFileSync(file, 'id,vector\n1,"[1]"\n2,"[\n2]"\n3,"[3]"x\n');
    const quoted = await all(file, 'csv');
    expect(quoted.map((r) => [r.line, r.point?.id ?? null])).toEqual([[2, 1], [3, 2], [5, null]]);
    expect(quoted[2]!.bad).toMatch(new RegExp(`^${file}:5: Invalid Closing Quote`));
    writeFileSync(file, '');
    await expect(all(file, 'csv')).rejects.toThrow('empty CSV file');
  });

  it('writes what it reads', async () => {
    const file = join(dir, 'round.csv');
    const points = [{ id: 1, vector: [0.5, 1], payload: { q: 'say "hi", then\nleave' } }, { id: 'x-2', vector: { a: [1] } }];
    writeFileSync(file, formatHeader('csv') + points.map((p) => formatPoint(p, 'csv')).join(''));
    expect((await all(file, 'csv')).map((r) => r.point)).toEqual(points);
  });
});

describe('withRetry', () => {
  const noSleep = async (): Promise<void> => undefined;
  it('retries 503 at most 5 times with doubling delays, and nothing else', async () => {
    const delays: number[] = [];
    let calls = 0;
    const sleep = async (ms: number): Promise<void> => void delays.push(ms);
    await expect(withRetry(async () => { calls++; throw new QuiverClientError(503, 'worker restarting'); }, 500, 5, sleep)).rejects.toThrow('worker restarting');
    expect(calls).toBe(6);
    expect(delays).toEqual([500, 1000, 2000, 4000, 8000]);

    let n = 0;
    expect(await withRetry(async () => (++n < 3 ? Promise.reject(new QuiverClientError(503, 'x')) : 'ok'), 500, 5, noSleep)).toBe('ok');
    calls = 0;
    await expect(withRetry(async () => { calls++; throw new QuiverClientError(412, 'collection is being deleted'); }, 500, 5, noSleep)).rejects.toThrow('being deleted');
    expect(calls).toBe(1);
  });
});
