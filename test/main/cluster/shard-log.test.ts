// The shard streams on a real one-server NATS (started by PID): how a stream is made, that a part
// published twice with the same message id is stored once, that entries round-trip, and that a
// log that cannot be reached answers a retryable 503 within its deadline.

import { spawn } from 'node:child_process';
import { connect } from 'node:net';
import { jetstreamManager } from '@nats-io/jetstream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ShardLog, ShardLogUnreachable, versionBelow } from '../../../src/shared/cluster/shard-log.js';
import { decodeEntry, encodeEntry, streamName, type LoggedWrite } from '../../../src/shared/log-entry.js';
import { QuiverError } from '../../../src/shared/errors.js';
import { freePort } from '../../helpers/ports.js';
import { NATS_SERVER_BIN, startNats, type NatsCluster } from '../../helpers/nats.js';

let nats: NatsCluster;
let log: ShardLog;
/** What the log reported, as the server's logger would get it. */
const warnings: { fields: Record<string, unknown>; msg: string }[] = [];

const write = (id: number): LoggedWrite => ({
  op: 'upsert',
  batch: { ids: [id], payloads: [{ n: id }], vectors: { '': { data: new Float32Array([id, 1, 2]), present: null } }, sparse: {} },
  condition: { mode: 'upsert', updateFilter: null },
});

beforeAll(async () => {
  nats = await startNats(1);
  log = await ShardLog.open({ servers: [nats.nodes[0]!.url], replicas: 1, publishDeadlineMs: 1500, ackTimeoutMs: 300 });
  log.log = { warn: (fields, msg) => warnings.push({ fields, msg }) };
});

afterAll(async () => {
  await log?.close();
  await nats?.close();
});

describe('shard streams', () => {
  it('creates one stream per shard as docs/cluster.md section 3 says, and deletes them', async () => {
    await log.createStreams(7, 2);
    // Creating again leaves them as they are.
    await log.createStreams(7, 2);
    const nc = await nats.connect();
    try {
      const jsm = await jetstreamManager(nc);
      const info = await jsm.streams.info(streamName(7, 1));
      expect(info.config.subjects).toEqual(['qv.7.1']);
      expect(info.config.storage).toBe('file');
      expect(info.config.num_replicas).toBe(1);
      expect(info.config.max_age).toBe(0);
      expect(info.config.allow_direct).toBe(true);
      expect(info.config.duplicate_window).toBeGreaterThanOrEqual(120e9);
      await log.deleteStreams(7, 2);
      await expect(jsm.streams.info(streamName(7, 0))).rejects.toThrow(/stream not found/);
      // Deleting what is gone is no error.
      await log.deleteStreams(7, 2);
    } finally {
      await nc.close();
    }
  });

  it('stores a part published twice with the same message id once', async () => {
    await log.createStreams(8, 1);
    const req = log.nextRequest();
    const a = await log.publish(8, 0, req, write(1));
    const b = await log.publish(8, 0, req, write(1));
    const c = await log.publish(8, 0, log.nextRequest(), write(2));
    expect(b).toBe(a);
    expect(c).toBe(a + 1);
    expect(await log.lastSeq(8, 0)).toBe(c);
    // Publishes answered at once are not worth a line.
    expect(warnings.filter((w) => w.fields.collection === 8)).toEqual([]);
  });

  it('round-trips an entry, typed arrays and filters included', () => {
    const w: LoggedWrite = { op: 'delete', ids: null, filter: { must: [{ key: 'a', match: { value: 1 } }] } } as LoggedWrite;
    expect(decodeEntry(encodeEntry(w))).toEqual(w);
    const u = decodeEntry(encodeEntry(write(5)));
    expect(u.op).toBe('upsert');
    if (u.op === 'upsert') expect(u.batch.vectors['']!.data).toEqual(new Float32Array([5, 1, 2]));
    expect(() => decodeEntry(new Uint8Array([9, 1, 2]))).toThrow(/unknown format 9/);
  });

  it('answers a retryable 503 when the stream cannot take the write within the deadline', async () => {
    // No stream listens on this subject: "no responders" until the deadline.
    const t0 = Date.now();
    const err = await log.publish(9, 0, log.nextRequest(), write(1)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(QuiverError);
    expect((err as QuiverError).code).toBe('ShardUnavailable');
    expect((err as QuiverError).message).toMatch(/Write log of shard 0 unavailable .*retry the request/);
    expect(Date.now() - t0).toBeLessThan(10_000);
    // The operator sees how long it tried, how often, and why.
    const gaveUp = warnings.find((w) => w.fields.collection === 9);
    expect(gaveUp?.msg).toBe('shard log publish gave up');
    expect(gaveUp?.fields).toMatchObject({ shard: 0, seq: null, first_error: expect.any(String) });
    expect(gaveUp?.fields.attempts).toBeGreaterThan(1);
    expect(gaveUp?.fields.ms).toBeGreaterThanOrEqual(1500);
  });

  it('logs a publish that waited for the log, and the connection it lost and got back', async () => {
    // Its own log, with time enough to wait out a restart of the server.
    const seen: { fields: Record<string, unknown>; msg: string }[] = [];
    const patient = await ShardLog.open({ servers: [nats.nodes[0]!.url], replicas: 1, publishDeadlineMs: 20_000, ackTimeoutMs: 500 });
    patient.log = { warn: (fields, msg) => seen.push({ fields, msg }) };
    try {
      await patient.createStreams(10, 1);
      await nats.stop(0);
      const pending = patient.publish(10, 0, patient.nextRequest(), write(3));
      await new Promise((r) => setTimeout(r, 400));
      await nats.start(0);
      expect(await pending).toBe(1);
      const slow = seen.find((w) => w.fields.collection === 10);
      expect(slow?.msg).toBe('shard log publish was slow');
      expect(slow?.fields).toMatchObject({ shard: 0, seq: 1 });
      expect(slow?.fields.attempts).toBeGreaterThan(1);
      const server = new URL(nats.nodes[0]!.url).host;
      expect(seen).toContainEqual({ fields: { server }, msg: 'shard log NATS connection: disconnect' });
      expect(seen).toContainEqual({ fields: { server }, msg: 'shard log NATS connection: reconnect' });
    } finally {
      await patient.close();
    }
  });

  it('refuses to open on a NATS nobody serves, naming the setting', async () => {
    const port = await freePort();
    const err = await ShardLog.open({ servers: [`127.0.0.1:${port}`], replicas: 1, connectTimeoutMs: 500 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ShardLogUnreachable);
    expect((err as Error).message).toContain(`cannot reach NATS at 127.0.0.1:${port} (SERVICE_CLUSTER_NATS)`);
  });

  it('waits for JetStream on a NATS that answers without it, then refuses naming the setting', async () => {
    const port = await freePort();
    // A nats-server with JetStream off (no config): connections work, JetStream never answers.
    const plain = spawn(NATS_SERVER_BIN, ['-a', '127.0.0.1', '-p', String(port)], { stdio: 'ignore' });
    try {
      for (let i = 0; !(await listening(port)); i++) {
        if (i > 100) throw new Error('the plain nats-server did not listen');
        await new Promise((r) => setTimeout(r, 50));
      }
      const t0 = Date.now();
      const err = await ShardLog.open({ servers: [`127.0.0.1:${port}`], replicas: 1, connectTimeoutMs: 5000, jetStreamWaitMs: 2000 }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ShardLogUnreachable);
      expect((err as Error).message).toContain(`NATS at 127.0.0.1:${port} (SERVICE_CLUSTER_NATS) has no usable JetStream after 2 s: `);
      expect(Date.now() - t0).toBeGreaterThanOrEqual(1500);
    } finally {
      plain.kill('SIGKILL');
    }
  });
});

/** Whether something accepts connections on the loopback port. */
function listening(port: number): Promise<boolean> {
  return new Promise((res) => {
    const sock = connect(port, '127.0.0.1');
    sock.once('connect', () => {
      sock.destroy();
      res(true);
    });
    sock.once('error', () => res(false));
  });
}

describe('the nats-server version', () => {
  it('is read from the server, and a 2.10 or later one is not warned about', () => {
    expect(log.serverVersion).toMatch(/^\d+\.\d+\.\d+/);
    expect(versionBelow(log.serverVersion, [2, 10])).toBe(false);
    expect(warnings.filter((w) => w.fields.nats_version !== undefined)).toEqual([]);
  });

  it('below 2.10 is told apart, an unreadable one is not', () => {
    expect(versionBelow('2.9.10', [2, 10])).toBe(true);
    expect(versionBelow('v1.4.0', [2, 10])).toBe(true);
    expect(versionBelow('2.10.0', [2, 10])).toBe(false);
    expect(versionBelow('2.11.3', [2, 10])).toBe(false);
    expect(versionBelow('3.0.0', [2, 10])).toBe(false);
    expect(versionBelow('unknown', [2, 10])).toBe(false);
  });
});
