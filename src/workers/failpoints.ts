// Failpoints: faults a test can switch on through the environment to see how Quiver behaves
// when a write breaks half-way (docs/interface.md section 7.3: a batch can partly succeed before a 500) or a worker
// thread dies. Off unless QUIVER_FAILPOINTS is set, e.g. QUIVER_FAILPOINTS=upsert_after=3 fails
// every upsert batch of a shard after its third point; crash_on_id=7 kills the worker thread that
// receives an upsert of point 7, before it applies anything; commit_fail_on_id=7 makes the LMDB
// write of point 7 fail as a failed commit would (disk full); load_delay_ms=500 sleeps the worker
// thread that long before each shard it loads at start, counted from when the main thread's REST
// port listens (to watch /readyz during a slow load);
// secondary_load_delay_ms=2000 makes a read copy added to a live collection (replication_factor
// raised) wait that long before it loads, so a test can watch a copy being built;
// cluster_block_main_ms=3000 blocks the main thread's event loop that long, once, a second after
// the node joined the cluster (its lease must survive it); commit_delay_ms=2500 holds every write's
// answer that long after its LMDB commit (a write slower than its wait timeout); read_delay_ms=1500
// holds every shard's search and count answer that long (a read slower than its timeout). Read
// once, at worker start.

const points = new Map<string, number>();
for (const part of (process.env.QUIVER_FAILPOINTS ?? '').split(',')) {
  const [name, value] = part.split('=');
  if (name && value !== undefined && Number.isInteger(Number(value))) points.set(name.trim(), Number(value));
}

/** The failpoint's number, or null when it is off. */
export function failpoint(
  name: 'upsert_after' | 'crash_on_id' | 'commit_fail_on_id' | 'load_delay_ms' | 'secondary_load_delay_ms' | 'cluster_block_main_ms' | 'commit_delay_ms' | 'read_delay_ms',
): number | null {
  return points.get(name) ?? null;
}
