// The process families of Qdrant's /metrics, read on Linux from /proc at scrape time:
// memory_*_bytes (Qdrant's jemalloc figures; here V8's heap for allocated and active, the
// process's resident set for resident, and 0 for jemalloc's metadata and retained pages, which a
// Node process does not have), process_threads, process_open_mmaps, system_max_mmaps and the page
// fault counters. A figure the system does not give is left out, as Qdrant leaves it out.

import { readFileSync } from 'node:fs';
import client from 'prom-client';

function read(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

/** Fields of /proc/self/stat after the command name: minflt is field 10, majflt field 12 (1-based). */
function statFields(): string[] | null {
  const stat = read('/proc/self/stat');
  if (stat === null) return null;
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

export function processFamilies(registers: client.Registry[]): void {
  const gauge = (name: string, help: string, value: () => number | null): void => {
    new client.Gauge({
      name,
      help,
      registers,
      collect() {
        const v = value();
        if (v !== null) this.set(v);
      },
    });
  };
  const counter = (name: string, help: string, value: () => number | null): void => {
    new client.Counter({
      name,
      help,
      registers,
      collect() {
        this.reset();
        const v = value();
        if (v !== null) this.inc(v);
      },
    });
  };
  gauge('memory_active_bytes', 'Total number of bytes in active pages allocated by the application', () => process.memoryUsage().heapTotal);
  gauge('memory_allocated_bytes', 'Total number of bytes allocated by the application', () => process.memoryUsage().heapUsed);
  gauge('memory_metadata_bytes', 'Total number of bytes dedicated to metadata', () => 0);
  gauge('memory_resident_bytes', 'Maximum number of bytes in physically resident data pages mapped', () => process.memoryUsage().rss);
  gauge('memory_retained_bytes', 'Total number of bytes in virtual memory mappings', () => 0);
  gauge('process_threads', 'count of active threads', () => {
    const m = /^Threads:\s+(\d+)/m.exec(read('/proc/self/status') ?? '');
    return m === null ? null : Number(m[1]);
  });
  gauge('process_open_mmaps', 'count of open mmaps', () => {
    const maps = read('/proc/self/maps');
    return maps === null ? null : maps.split('\n').filter((l) => l !== '').length;
  });
  gauge('system_max_mmaps', 'system wide limit of open mmaps', () => {
    const v = read('/proc/sys/vm/max_map_count');
    return v === null ? null : Number(v.trim());
  });
  counter('process_minor_page_faults_total', 'count of minor page faults which didn\'t cause a disk access', () => {
    const f = statFields();
    return f === null ? null : Number(f[7]);
  });
  counter('process_major_page_faults_total', 'count of disk accesses caused by a mmap page fault', () => {
    const f = statFields();
    return f === null ? null : Number(f[9]);
  });
}
