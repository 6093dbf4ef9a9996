// `quiver export --collection NAME [FILE]`: every point, through scroll pages, into JSONL or CSV
// (the format `quiver import` reads), on stdout when no FILE is given.

import { createWriteStream, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import type { QuiverClient } from '../client/index.js';
import type { PointId } from '../shared/types.js';
import { CliError, withRetry } from './common.js';
import { progress } from './progress.js';
import { formatHeader, formatOf, formatPoint, type PointLine, type VectorValue } from './records.js';

export interface ExportOptions {
  collection: string;
  format?: string;
  batchSize: number;
}

async function write(out: NodeJS.WritableStream, text: string): Promise<void> {
  // Waits for 'drain' when the stream is full, so a large collection does not pile up in memory.
  if (!out.write(text)) await once(out, 'drain');
}

export async function runExport(client: QuiverClient, file: string | undefined, opts: ExportOptions, log: (s: string) => void): Promise<void> {
  if (!Number.isInteger(opts.batchSize) || opts.batchSize < 1) throw new CliError('--batch-size must be a positive integer');
  const format = formatOf(file ?? '', opts.format);
  // Asked first so an unknown collection fails before FILE is created.
  const { count: total } = await withRetry(() => client.count(opts.collection, { exact: true }));
  let out: NodeJS.WritableStream = process.stdout;
  let fileStream: WriteStream | null = null;
  if (file !== undefined) {
    fileStream = createWriteStream(file);
    await once(fileStream, 'open');
    out = fileStream;
  }
  const bar = progress(`export ${opts.collection}`, total);
  let points = 0;
  try {
    await write(out, formatHeader(format));
    let offset: PointId | null = null;
    do {
      const page: { points: { id: PointId; vector?: unknown; payload?: unknown }[]; next_page_offset: PointId | null } = await withRetry(() =>
        client.scroll(opts.collection, { limit: opts.batchSize, with_payload: true, with_vector: true, ...(offset === null ? {} : { offset }) }),
      );
      let text = '';
      for (const p of page.points) {
        const line: PointLine = { id: p.id, vector: (p.vector ?? {}) as VectorValue };
        if (p.payload !== null && p.payload !== undefined) line.payload = p.payload as NonNullable<PointLine['payload']>;
        text += formatPoint(line, format);
      }
      await write(out, text);
      points += page.points.length;
      bar.update(points, points);
      offset = page.next_page_offset;
    } while (offset !== null);
  } finally {
    bar.stop();
    if (fileStream !== null) {
      fileStream.end();
      await once(fileStream, 'close');
    }
  }
  log(`exported ${points} points from '${opts.collection}'${file === undefined ? '' : ` to ${file}`}`);
}
