// Unit tests of the client's retry policy, with a scripted fetch and fake timers.

import { afterEach, describe, expect, it, vi } from 'vitest';
import { QuiverClient, QuiverClientError } from '../../src/client/index.js';

function reply(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

const notReady = () => reply(412, { time: 0, status: { error: 'Engine not initialized' } });
const okList = () => reply(200, { usage: null, time: 0, status: 'ok', result: { collections: [{ name: 'a' }] } });

afterEach(() => {
  vi.useRealTimers();
});

describe('retry on 412 Engine not initialized', () => {
  it('waits 500 ms, 1 s, 2 s, 4 s, 8 s between attempts, then succeeds', async () => {
    vi.useFakeTimers();
    const script = [notReady(), notReady(), notReady(), notReady(), notReady(), okList()];
    const fetch = vi.fn(async () => script.shift()!);
    const client = new QuiverClient({ url: 'http://x', fetch });
    const started = Date.now();
    const p = client.listCollections();
    const calls: number[] = [];
    for (const step of [0, 500, 1000, 2000, 4000, 8000]) {
      await vi.advanceTimersByTimeAsync(step);
      calls.push(fetch.mock.calls.length);
    }
    expect(calls).toEqual([1, 2, 3, 4, 5, 6]);
    await expect(p).resolves.toEqual({ collections: [{ name: 'a' }] });
    expect(Date.now() - started).toBe(15_500);
  });

  it('does not retry early: nothing happens before the delay has passed', async () => {
    vi.useFakeTimers();
    const fetch = vi.fn(async () => (fetch.mock.calls.length === 1 ? notReady() : okList()));
    const p = new QuiverClient({ url: 'http://x', fetch }).listCollections();
    await vi.advanceTimersByTimeAsync(499);
    expect(fetch).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    await expect(p).resolves.toBeTruthy();
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it('gives up after 5 retries with a typed error carrying status and message', async () => {
    vi.useFakeTimers();
    const fetch = vi.fn(async () => notReady());
    const p = new QuiverClient({ url: 'http://x', fetch }).listCollections();
    const settled = p.catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(20_000);
    const err = await settled;
    expect(err).toBeInstanceOf(QuiverClientError);
    expect((err as QuiverClientError).status).toBe(412);
    expect((err as QuiverClientError).message).toBe('Engine not initialized');
    expect(fetch).toHaveBeenCalledTimes(6);
  });

  it.each([
    [412, 'Collection c is being deleted'],
    [404, 'Collection not found: c'],
    [400, 'Dimension mismatch for vector \'\': expected 4, got 3'],
    [500, 'Service internal error: boom'],
  ])('does not retry a %i (%s)', async (status, error) => {
    const fetch = vi.fn(async () => reply(status, { time: 0, status: { error } }));
    const err = await new QuiverClient({ url: 'http://x', fetch }).getCollection('c').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(QuiverClientError);
    expect((err as QuiverClientError).status).toBe(status);
    expect((err as QuiverClientError).message).toBe(error);
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('reads the auth envelope message too', async () => {
    const fetch = vi.fn(async () => reply(401, { status: 'error', message: 'Invalid credential' }));
    const err = (await new QuiverClient({ url: 'http://x', fetch }).listCollections().catch((e: unknown) => e)) as QuiverClientError;
    expect(err.status).toBe(401);
    expect(err.message).toBe('Invalid credential');
  });
});

describe('requests', () => {
  it('sends JSON bodies, wait flags, encoded names and the api key', async () => {
    const fetch = vi.fn(async (..._args: unknown[]) => reply(200, { status: 'ok', time: 0, usage: null, result: { operation_id: 1, status: 'completed' } }));
    const client = new QuiverClient({ url: 'http://h:1/', fetch, apiKey: 'k' });
    await client.upsert('a b', { points: [{ id: 1, vector: [1] }] });
    const [url, init] = fetch.mock.calls[0]! as [string, RequestInit];
    expect(url).toBe('http://h:1/collections/a%20b/points?wait=true');
    expect(init.method).toBe('PUT');
    expect(init.headers).toEqual({ 'api-key': 'k', 'content-type': 'application/json' });
    expect(JSON.parse(init.body as string)).toEqual({ points: [{ id: 1, vector: [1] }] });
  });
});
