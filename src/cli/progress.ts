// Progress of a long import or export, on stderr (stdout may carry the exported points): a bar
// with rate and ETA when stderr is a terminal, otherwise one plain line every few seconds and a
// last one at the end, which log files and CI output keep readable.

import { SingleBar, Presets } from 'cli-progress';

export interface Progress {
  /** `done` in the unit of `total` (bytes for import, points for export); `points` so far. */
  update(done: number, points: number): void;
  /** A line of its own (a skipped record), which the bar does not draw over. */
  note(message: string): void;
  stop(): void;
}

const PLAIN_EVERY_MS = 2000;

function eta(seconds: number): string {
  if (!Number.isFinite(seconds)) return '?';
  const s = Math.round(seconds);
  return s >= 3600 ? `${Math.floor(s / 3600)}h${Math.floor((s % 3600) / 60)}m` : s >= 60 ? `${Math.floor(s / 60)}m${s % 60}s` : `${s}s`;
}

/** `startDone`, `startPoints`: what a resumed import did before this run, left out of rate and ETA. */
export function progress(label: string, total: number, startDone = 0, startPoints = 0, stream: NodeJS.WriteStream = process.stderr): Progress {
  const t0 = performance.now();
  const points0 = startPoints;
  let started = false;
  const rate = (points: number): number => {
    const secs = (performance.now() - t0) / 1000;
    return secs > 0 ? (points - points0) / secs : 0;
  };
  // Seconds left at the pace of this run so far; NaN until there is a pace.
  const remaining = (done: number): number => {
    const secs = (performance.now() - t0) / 1000;
    return done > startDone && secs > 0 ? ((total - done) * secs) / (done - startDone) : Number.NaN;
  };
  if (stream.isTTY === true) {
    const bar = new SingleBar(
      { format: `${label} [{bar}] {percentage}% | {points} points | {rate} points/s | ETA {left}`, stream, hideCursor: true },
      Presets.shades_classic,
    );
    return {
      update(done, points) {
        if (!started) {
          started = true;
          bar.start(Math.max(total, 1), done, { points, rate: 0, left: '?' });
        }
        bar.update(Math.min(done, total), { points, rate: Math.round(rate(points)), left: eta(remaining(done)) });
      },
      note(message) {
        // Clears the bar's line; its next update draws it again below.
        stream.write(`${started ? '\r\x1b[K' : ''}${message}\n`);
      },
      stop() {
        if (started) bar.stop();
      },
    };
  }
  let last = 0;
  let lastDone = 0;
  let lastPoints = 0;
  let printed = -1;
  const line = (): void => {
    printed = lastDone;
    const pct = total > 0 ? Math.min(100, (100 * lastDone) / total) : 100;
    stream.write(`${label}: ${pct.toFixed(1)}% ${lastPoints} points, ${Math.round(rate(lastPoints))} points/s, ETA ${eta(remaining(lastDone))}\n`);
  };
  return {
    update(done, points) {
      started = true;
      lastDone = done;
      lastPoints = points;
      const now = performance.now();
      if (now - last >= PLAIN_EVERY_MS) {
        last = now;
        line();
      }
    },
    note(message) {
      stream.write(`${message}\n`);
    },
    stop() {
      if (started && printed !== lastDone) line();
    },
  };
}
