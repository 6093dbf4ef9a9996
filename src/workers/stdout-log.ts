// A worker thread's log line: pino's JSON shape on stdout, the server's log format (workers have
// no logger of their own; the main thread's pino writes to the same stream).

const LEVEL = { info: 30, warn: 40, error: 50 } as const;

export function workerLog(level: keyof typeof LEVEL, fields: Record<string, unknown>, msg: string): void {
  process.stdout.write(JSON.stringify({ level: LEVEL[level], time: Date.now(), ...fields, msg }) + '\n');
}
