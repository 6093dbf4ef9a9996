// The dashboard's tools in headless Chromium against the real server, auth on: the collection
// detail (config, vectors, indexes, shards, cluster, live recall), the full vector of a point,
// "Find similar" in the expected neighbour order, the request console with its history, and the
// map: a PCA projection drawn on a canvas, checked on its pixels (read back from the canvas and
// from a screenshot) and by hovering a point. Screenshots go to test/artifacts/ (git-ignored).

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PCA } from 'ml-pca';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { float32ToNumber } from '../../src/shared/float.js';
import { apiKeyHeader, createKey } from '../helpers/auth.js';
import { ARTIFACTS, haveChromium, message as messageOf, startDashboard, type Dashboard } from '../helpers/browser.js';
import { sample, scrape } from '../helpers/metrics.js';
import { pixel, readPng, rgbOf } from '../helpers/png.js';
import { call, rng, type TestServer } from '../helpers/server.js';
import { signInAsAdmin } from './steps.js';

const NAME = 'tools';
const DIM = 6;
const GROUPS = ['a', 'b', 'c'];
/** 30 points in three tight clusters, one per group, around 10 times the first three axes; ids interleave the groups. */
const POINTS = (() => {
  const r = rng(7);
  return Array.from({ length: 30 }, (_, i) => {
    const g = i % 3;
    const vector = Array.from({ length: DIM }, (_, d) => (d === g ? 10 : 0) + r() * 0.6);
    return { id: i + 1, vector, payload: { group: GROUPS[g] ?? '', n: i + 1 } };
  });
})();
// A value the float32 shortest form writes with an exponent.
(POINTS[0] as { vector: number[] }).vector[5] = -2.5e-7;
const f32 = (v: number[]): number[] => v.map((x) => float32ToNumber(Math.fround(x)));
/** Colours equal but for the rounding of the canvas's blending (a unit or two a channel). */
const near = (a: readonly number[], b: readonly number[]): boolean => a.length === 3 && a.every((v, k) => Math.abs(v - (b[k] ?? 0)) <= 3);

let server: TestServer;
let dashboard: Dashboard | undefined;
let page: Page;
let writer: Record<string, string> = {};

async function shot(name: string): Promise<void> {
  await page.screenshot({ path: join(ARTIFACTS, `dashboard-tools-${name}.png`), fullPage: true });
}

function message(pattern: RegExp): Promise<string> {
  return messageOf(page, pattern);
}

/** The map's canvas in the page, typed here: the tests compile without the DOM types. */
type PageCanvas = { width: number; height: number; getContext(k: '2d'): { getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray } } };

/** Whether every pixel of the map's canvas is transparent. */
const canvasBlank = (): Promise<boolean> =>
  page.locator('#map-canvas').evaluate((el) => {
    const c = el as unknown as PageCanvas;
    return c.getContext('2d').getImageData(0, 0, c.width, c.height).data.every((v) => v === 0);
  });

const dataIds = (selector: string): Promise<(string | null)[]> => page.locator(selector).evaluateAll((els) => els.map((e) => e.getAttribute('data-id')));

interface Drawn {
  id: number;
  x: number;
  y: number;
  category: string;
  color: string;
}

/** The projected points as the page lists them. */
const drawn = (): Promise<Drawn[]> =>
  page.locator('#map-points tbody tr').evaluateAll((trs) =>
    trs.map((t) => ({ id: Number(t.getAttribute('data-id')), x: Number(t.getAttribute('data-x')), y: Number(t.getAttribute('data-y')), category: t.getAttribute('data-category') ?? '', color: t.getAttribute('data-color') ?? '' })),
  );

/** The canvas's own pixels at the given CSS positions, read back in the page. */
const canvasPixels = (at: { x: number; y: number }[]): Promise<number[][]> =>
  page.locator('#map-canvas').evaluate((el, points) => {
    const ctx = (el as unknown as PageCanvas).getContext('2d');
    return points.map((p) => [...ctx.getImageData(p.x, p.y, 1, 1).data].slice(0, 3));
  }, at);

describe.skipIf(!haveChromium)('dashboard tools in Chromium, auth on', () => {
  beforeAll(async () => {
    // Every approximate search checked for live recall, so the detail has figures once some ran.
    dashboard = await startDashboard({ SERVICE_LIVE_RECALL_FRACTION: '1' });
    ({ server, page } = dashboard);
    writer = apiKeyHeader((await createKey(server.url, dashboard.jwt, { name: 'writer', permission: 'read,write' })).api_key);
    expect((await call(server.url, 'PUT', `/collections/${NAME}`, { vectors: { size: DIM, distance: 'Euclid' }, shard_number: 2 }, writer)).status).toBe(200);
    expect((await call(server.url, 'PUT', `/collections/${NAME}/points?wait=true`, { points: POINTS }, writer)).status).toBe(200);
    expect((await call(server.url, 'PUT', `/collections/${NAME}/index?wait=true`, { field_name: 'group', field_schema: 'keyword' }, writer)).status).toBe(200);
  }, 120_000);

  afterAll(async () => {
    await dashboard?.stop();
  });

  it('signs in with the admin password', async () => {
    await signInAsAdmin(page, server.url);
  });

  it('the collection detail shows state, vectors, indexes, config, shards, cluster and live recall', async () => {
    await page.locator(`#collections-table tr[data-name="${NAME}"] button`, { hasText: 'Detail' }).click();
    await expect.poll(() => page.locator('#detail-body').isVisible()).toBe(true);
    expect(await page.locator('#detail-title').textContent()).toBe(NAME);
    expect(await page.locator('#detail-overview tr[data-key="status"] td').allTextContents()).toEqual(['status', 'green']);
    expect(await page.locator('#detail-overview tr[data-key="points"] td').allTextContents()).toEqual(['points', '30']);
    const vector = await page.locator('#detail-vectors tr[data-vector=""] td').allTextContents();
    expect(vector.slice(0, 3)).toEqual(['(unnamed)', String(DIM), 'Euclid']);
    expect(await page.locator('#detail-indexes tr[data-field="group"] td').allTextContents()).toEqual(['group', 'keyword', '30', '—']);
    // The config as the server has it, one dotted key a row.
    const info = (await call(server.url, 'GET', `/collections/${NAME}`, undefined, writer)).body.result;
    expect(await page.locator('#detail-config tr[data-key="hnsw_config.m"] td').nth(1).textContent()).toBe(String(info.config.hnsw_config.m));
    expect(await page.locator('#detail-config tr[data-key="params.shard_number"] td').nth(1).textContent()).toBe(String(info.config.params.shard_number));
    // The shards and replicas the server reports, every point in one of them.
    const cluster = (await call(server.url, 'GET', `/collections/${NAME}/cluster`, undefined, writer)).body.result;
    const shards = await page.locator('#detail-shards tr[data-shard]').evaluateAll((trs) => trs.map((t) => [...t.querySelectorAll('td')].map((td) => td.textContent)));
    expect(cluster.shard_count).toBe(2);
    expect(shards.length).toBe(cluster.local_shards.length + cluster.remote_shards.length);
    expect(await page.locator('#detail-shards p').first().textContent()).toBe('2 shards; 2 local replicas, 0 remote.');
    expect(shards.map((s) => Number(s[0]))).toEqual(cluster.local_shards.map((s: { shard_id: number }) => s.shard_id).sort());
    for (const s of shards) expect([s[1], s[2]]).toEqual([`this peer (${cluster.peer_id})`, 'Active']);
    expect(shards.reduce((n, s) => n + Number(s[3]), 0)).toBe(30);
    expect(await page.locator('#detail-cluster p').textContent()).toBe('Cluster mode is off: a single node.');
    // No search has run yet: no recall sample.
    expect(await page.locator('#detail-recall').textContent()).toBe('no samples yet');
    await shot('1-detail');
  });

  it('shows a full vector on demand, as the server stores it (float32 shortest decimals)', async () => {
    await page.click('nav button[data-tab="points"]');
    await page.selectOption('#points-collection', NAME);
    await page.fill('#points-limit', '30');
    await page.click('#points-scroll');
    await expect.poll(() => page.locator('#points-page').textContent()).toBe(`${NAME}: page 1, 30 points (last page)`);
    const row = page.locator('#points-table tbody tr[data-id="1"]');
    const cell = row.locator('pre.vector');
    expect(await cell.textContent()).toMatch(/^\[10\.\d{3}, 0\.\d{3}, 0\.\d{3}, 0\.\d{3}, … 6 dims\]$/);
    await row.locator('button.full-vector').click();
    const full = (await cell.textContent()) ?? '';
    const stored = f32((POINTS[0] as { vector: number[] }).vector);
    expect(full).toBe(`[${stored.map(String).join(', ')}]`);
    expect(full).toContain('-2.5e-7');
    // Digit for digit what the server wrote.
    const raw = await (await fetch(`${server.url}/collections/${NAME}/points/1`, { headers: writer })).text();
    expect(full.replace(/ /g, '')).toBe(/"vector":(\[[^\]]*\])/.exec(raw)?.[1]);
    await shot('2-full-vector');
    await row.locator('button.full-vector').click();
    expect(await cell.textContent()).toContain('… 6 dims');
  });

  it('"Find similar" from a point lists its neighbours nearest first, the point left out', async () => {
    await page.click('nav button[data-tab="query"]');
    await page.fill('#query-limit', '8');
    await page.click('nav button[data-tab="points"]');
    const from = POINTS[4] as { id: number; vector: number[] };
    await page.locator(`#points-table tbody tr[data-id="${from.id}"] button.find-similar`).click();
    await message(/8 results from tools/);
    expect(await page.locator('#tab-query').isVisible()).toBe(true);
    expect(await page.inputValue('#query-input')).toBe(String(from.id));
    const dist = (v: number[]): number => f32(v).reduce((s, x, d) => s + (x - (f32(from.vector)[d] ?? 0)) ** 2, 0);
    const expected = POINTS.filter((p) => p.id !== from.id)
      .sort((p, q) => dist(p.vector) - dist(q.vector))
      .slice(0, 8)
      .map((p) => String(p.id));
    expect(await dataIds('#query-table tbody tr')).toEqual(expected);
    await shot('3-similar');
  });

  it('the console sends any request, shows the answer, and keeps a history to send again', async () => {
    await page.click('nav button[data-tab="console"]');
    expect(await page.locator('#console-history-empty').isVisible()).toBe(true);
    await page.selectOption('#console-method', 'GET');
    await page.fill('#console-path', `/collections/${NAME}`);
    await page.click('#console-send');
    await expect.poll(() => page.locator('#console-status').textContent()).toMatch(new RegExp(`^GET /collections/${NAME}: HTTP 200 · \\d+ ms$`));
    expect(JSON.parse((await page.locator('#console-response').textContent()) ?? '').result.points_count).toBe(30);
    await page.selectOption('#console-method', 'POST');
    await page.fill('#console-path', `collections/${NAME}/points/count`);
    await page.fill('#console-body', JSON.stringify({ exact: true, filter: { must: [{ key: 'group', match: { value: 'b' } }] } }));
    await page.click('#console-send');
    await expect.poll(() => page.locator('#console-status').textContent()).toMatch(/^POST \/collections\/tools\/points\/count: HTTP 200/);
    expect(JSON.parse((await page.locator('#console-response').textContent()) ?? '').result).toEqual({ count: 10 });
    // An error answer is shown as it came, marked as a failure.
    await page.selectOption('#console-method', 'GET');
    await page.fill('#console-path', '/collections/nope');
    await page.fill('#console-body', '');
    await page.click('#console-send');
    await expect.poll(() => page.locator('#console-status').textContent()).toMatch(/^GET \/collections\/nope: HTTP 404/);
    expect(await page.locator('#console-status').getAttribute('data-ok')).toBe('false');
    expect(await page.locator('#console-response').textContent()).toContain('nope');
    // A body that is not JSON is not sent.
    await page.fill('#console-body', '{"limit": ');
    await page.click('#console-send');
    await message(/Console: Body is not valid JSON/);
    // The history, newest first; an entry puts its request back.
    const history = page.locator('#console-history li');
    expect(await history.evaluateAll((lis) => lis.map((li) => [li.querySelector('button')?.textContent, li.getAttribute('data-status')]))).toEqual([
      ['GET /collections/nope', '404'],
      [`POST /collections/${NAME}/points/count`, '200'],
      [`GET /collections/${NAME}`, '200'],
    ]);
    await shot('4-console');
    await history.nth(1).locator('button').click();
    expect(await page.inputValue('#console-method')).toBe('POST');
    expect(await page.inputValue('#console-path')).toBe(`/collections/${NAME}/points/count`);
    expect(JSON.parse(await page.inputValue('#console-body')).filter.must[0].match.value).toBe('b');
    // Ctrl+Enter in the body sends it.
    await page.locator('#console-body').press('Control+Enter');
    await expect.poll(() => history.count()).toBe(4);
    expect(await history.first().locator('button').textContent()).toBe(`POST /collections/${NAME}/points/count`);
    await page.click('#console-clear');
    expect(await history.count()).toBe(0);
  });

  describe('the map', () => {
    let points: Drawn[] = [];

    it('projects a sample by PCA and colours it by the payload field picked', async () => {
      await page.click('nav button[data-tab="collections"]');
      await page.locator(`#collections-table tr[data-name="${NAME}"] button`, { hasText: 'Map' }).click();
      expect(await page.inputValue('#map-collection')).toBe(NAME);
      await page.click('#map-draw');
      await message(/Map of 30 points from tools/);
      expect(await page.locator('#map-info').textContent()).toMatch(/^tools: a random 30 points of 6 dimensions, by PCA \(PC1 \d+%, PC2 \d+% of the variance\)\.$/);
      expect(await page.locator('#map-color option').allTextContents()).toEqual(['(one colour)', 'group', 'n']);
      await page.selectOption('#map-color', 'group');
      const legend = await page.locator('#map-legend li').evaluateAll((lis) => lis.map((li) => [li.getAttribute('data-category'), li.getAttribute('data-color'), li.textContent]));
      expect(legend.map((l) => l[2])).toEqual(['a (10)', 'b (10)', 'c (10)']);
      const colours = new Map(legend.map((l) => [l[0], l[1]]));
      expect(new Set(colours.values()).size).toBe(3);
      points = await drawn();
      expect(points.map((p) => p.id).sort((a, b) => a - b)).toEqual(POINTS.map((p) => p.id));
      for (const p of points) {
        expect(p.category).toBe(POINTS[p.id - 1]?.payload.group);
        expect(p.color).toBe(colours.get(p.category));
        expect(p.x >= 0 && p.x < 720 && p.y >= 0 && p.y < 480).toBe(true);
      }
      // The positions are the first two principal components of the stored vectors, scaled to the
      // canvas (y up): each axis follows the component computed here with the same library.
      const stored = POINTS.map((p) => f32(p.vector));
      const scores = new PCA(stored).predict(stored, { nComponents: 2 }).to2DArray();
      const byId = new Map(points.map((p) => [p.id, p]));
      const correlation = (a: number[], b: number[]): number => {
        const mean = (v: number[]): number => v.reduce((s, x) => s + x, 0) / v.length;
        const [ma, mb] = [mean(a), mean(b)];
        const cov = a.reduce((s, x, i) => s + (x - ma) * ((b[i] ?? 0) - mb), 0);
        return cov / Math.sqrt(a.reduce((s, x) => s + (x - ma) ** 2, 0) * b.reduce((s, x) => s + (x - mb) ** 2, 0));
      };
      const xs = POINTS.map((p) => byId.get(p.id)?.x ?? 0);
      const ys = POINTS.map((p) => byId.get(p.id)?.y ?? 0);
      expect(correlation(xs, scores.map((s) => s[0] ?? 0))).toBeGreaterThan(0.999);
      expect(correlation(ys, scores.map((s) => s[1] ?? 0))).toBeLessThan(-0.999);
      // Three clusters in 6-D stay three apart in 2-D: each group's points sit far closer to their
      // own centre than the centres sit to each other.
      const centre = (g: string): [number, number] => {
        const own = points.filter((p) => p.category === g);
        return [own.reduce((s, p) => s + p.x, 0) / own.length, own.reduce((s, p) => s + p.y, 0) / own.length];
      };
      const centres = GROUPS.map(centre);
      const spread = Math.max(...points.map((p) => Math.hypot(p.x - (centres[GROUPS.indexOf(p.category)]?.[0] ?? 0), p.y - (centres[GROUPS.indexOf(p.category)]?.[1] ?? 0))));
      const apart = Math.min(...centres.flatMap((c, i) => centres.slice(i + 1).map((d) => Math.hypot(c[0] - d[0], c[1] - d[1]))));
      expect(apart).toBeGreaterThan(4 * spread);
      expect(apart).toBeGreaterThan(100);
    });

    it('draws each point in its colour where the list says: on the canvas and on screen', async () => {
      // Read back from the canvas: each point's centre holds its category's colour.
      const px = await canvasPixels(points);
      points.forEach((p, i) => expect(near(px[i] ?? [], rgbOf(p.color)), `point ${p.id}: ${px[i]?.join()} for ${p.color}`).toBe(true));
      // On screen: a screenshot of the canvas's drawing area (inside its border), to the nearest
      // pixel of the layout, so a point may sit a pixel off: still inside its disc.
      const canvas = page.locator('#map-canvas');
      await canvas.scrollIntoViewIfNeeded();
      const box = await canvas.boundingBox();
      const border = await canvas.evaluate((el) => [el.clientLeft, el.clientTop]);
      if (box === null) throw new Error('the canvas is not on screen');
      const clip = { x: Math.round(box.x + (border[0] ?? 0)), y: Math.round(box.y + (border[1] ?? 0)), width: 720, height: 480 };
      const img = readPng(await page.screenshot({ clip, path: join(ARTIFACTS, 'dashboard-tools-5-map-canvas.png') }));
      expect([img.width, img.height]).toEqual([720, 480]);
      for (const p of points) expect(near(pixel(img, p.x, p.y), rgbOf(p.color)), `point ${p.id} on screen`).toBe(true);
      // Every pixel in a category's colour lies on a point of that category, and each colour covers
      // at least ten discs' worth of a few pixels each.
      const byColour = new Map([...new Set(points.map((p) => p.color))].map((c) => [c, { rgb: rgbOf(c), own: points.filter((p) => p.color === c), count: 0 }]));
      let white = 0;
      for (let y = 0; y < img.height; y++) {
        for (let x = 0; x < img.width; x++) {
          const v = pixel(img, x, y);
          if (v.every((c) => c === 255)) white++;
          for (const [colour, c] of byColour) {
            if (!near(v, c.rgb)) continue;
            c.count++;
            const on = c.own.some((p) => Math.hypot(p.x - x, p.y - y) <= 6);
            expect(on, `pixel (${x}, ${y}) in ${colour} is on no point of that colour`).toBe(true);
          }
        }
      }
      for (const [colour, c] of byColour) expect(c.count, colour).toBeGreaterThanOrEqual(20);
      expect(white / (img.width * img.height)).toBeGreaterThan(0.9);
      await shot('5-map');
    });

    it('hovering a point shows its id and payload; clicking it finds its neighbours', async () => {
      const target = points.find((p) => p.id === 14) as Drawn;
      const group = POINTS[13]?.payload.group ?? '';
      const border = await page.locator('#map-canvas').evaluate((el) => [el.clientLeft, el.clientTop]);
      const box = await page.locator('#map-canvas').boundingBox();
      if (box === null) throw new Error('the canvas is not on screen');
      await page.mouse.move(box.x + (border[0] ?? 0) + target.x, box.y + (border[1] ?? 0) + target.y);
      const tip = page.locator('#map-tip');
      await expect.poll(() => tip.isVisible()).toBe(true);
      expect(await tip.getAttribute('data-id')).toBe('14');
      const text = (await tip.textContent()) ?? '';
      expect(text).toMatch(new RegExp(`^id 14 · ${group}\\{`));
      expect(JSON.parse(text.slice(text.indexOf('{')))).toEqual({ group, n: 14 });
      await shot('6-map-hover');
      await page.mouse.move(box.x + 2, box.y + 2);
      await expect.poll(() => tip.isVisible()).toBe(false);
      await page.mouse.click(box.x + (border[0] ?? 0) + target.x, box.y + (border[1] ?? 0) + target.y);
      await message(/8 results from tools/);
      expect(await page.inputValue('#query-input')).toBe('14');
      const ids = (await dataIds('#query-table tbody tr')).map(Number);
      // Its nearest are its own group's points.
      for (const id of ids) expect(POINTS[id - 1]?.payload.group).toBe(group);
    });

    it('one colour for all when no field is picked', async () => {
      await page.click('nav button[data-tab="map"]');
      await page.selectOption('#map-color', '');
      expect(await page.locator('#map-legend li').allTextContents()).toEqual(['all points (30)']);
      const colour = (await drawn())[0]?.color ?? '';
      const px = await canvasPixels(points);
      for (const v of px) expect(near(v, rgbOf(colour)), v.join()).toBe(true);
      writeFileSync(join(ARTIFACTS, 'dashboard-tools-7-map-one-colour.png'), await page.locator('#map-canvas').screenshot());
    });
  });

  it('a smaller sample draws that many points, picked at random', async () => {
    await page.fill('#map-sample', '12');
    await page.click('#map-draw');
    await message(/Map of 12 points from tools/);
    const ids = await page.locator('#map-points tbody tr').evaluateAll((trs) => trs.map((t) => Number(t.getAttribute('data-id'))));
    expect(new Set(ids).size).toBe(12);
    for (const id of ids) expect(id >= 1 && id <= 30).toBe(true);
  });

  it('maps a named vector of a collection with several: in 2-D, PCA keeps the distances', async () => {
    const txt = [[0, 0], [3, 0], [0, 4], [6, 8], [-5, 2], [1, -7]];
    const points = txt.map((v, i) => ({ id: i + 1, vector: { img: [1, i, 0], txt: v }, payload: { k: i % 2 === 0 ? 'even' : 'odd' } }));
    expect((await call(server.url, 'PUT', '/collections/named', { vectors: { img: { size: 3, distance: 'Euclid' }, txt: { size: 2, distance: 'Euclid' } } }, writer)).status).toBe(200);
    expect((await call(server.url, 'PUT', '/collections/named/points?wait=true', { points }, writer)).status).toBe(200);
    await page.click('nav button[data-tab="collections"]');
    await page.click('#refresh-collections');
    await page.locator('#collections-table tr[data-name="named"] button', { hasText: 'Map' }).click();
    await page.fill('#map-sample', '100');
    await page.fill('#map-using', 'txt');
    await page.click('#map-draw');
    await message(/Map of 6 points from named/);
    expect(await page.locator('#map-info').textContent()).toMatch(/^named: a random 6 points of 2 dimensions, by PCA/);
    const at = new Map((await drawn()).map((p) => [p.id, p]));
    // A rotation (and a flip) scaled to the canvas: every distance in the same ratio, to the pixel.
    const scale = Math.hypot((at.get(4)?.x ?? 0) - (at.get(1)?.x ?? 0), (at.get(4)?.y ?? 0) - (at.get(1)?.y ?? 0)) / 10;
    for (let i = 1; i <= 6; i++) {
      for (let j = i + 1; j <= 6; j++) {
        const [a, b] = [txt[i - 1] ?? [], txt[j - 1] ?? []];
        const want = Math.hypot((a[0] ?? 0) - (b[0] ?? 0), (a[1] ?? 0) - (b[1] ?? 0)) * scale;
        const got = Math.hypot((at.get(i)?.x ?? 0) - (at.get(j)?.x ?? 0), (at.get(i)?.y ?? 0) - (at.get(j)?.y ?? 0));
        expect(Math.abs(got - want), `points ${i} and ${j}`).toBeLessThan(2);
      }
    }
    await page.fill('#map-using', 'audio');
    await page.click('#map-draw');
    await message(/^Map: .*audio/);
    await page.fill('#map-using', '');
  });

  it('the detail shows the live recall /metrics has for the collection once searches were checked', async () => {
    const filter = { must: [{ key: 'group', match: { value: 'a' } }] };
    for (const p of POINTS.slice(0, 3)) {
      expect((await call(server.url, 'POST', `/collections/${NAME}/points/query`, { query: p.vector, limit: 5 }, writer)).status).toBe(200);
      expect((await call(server.url, 'POST', `/collections/${NAME}/points/query`, { query: p.vector, limit: 5, filter }, writer)).status).toBe(200);
    }
    // The server's figures, read with the tests' own parser, as the detail should word them.
    const expected = async (): Promise<string> => {
      const text = await scrape(server.url, writer);
      const one = (filtered: boolean): string => {
        const labels = { collection: NAME, filtered: String(filtered) };
        const [recall, n] = [sample(text, 'quiver_live_recall', labels), sample(text, 'quiver_live_recall_samples_total', labels)];
        if (recall === undefined || n === undefined || n === 0) return '—';
        expect(recall >= 0 && recall <= 1).toBe(true);
        return `${Number(recall.toFixed(3))} (${n} sample${n === 1 ? '' : 's'})`;
      };
      return `unfiltered ${one(false)}, filtered ${one(true)}`;
    };
    await page.click('nav button[data-tab="detail"]');
    await page.selectOption('#detail-collection', NAME);
    // The checks run after the answers: read both sides until they agree and have both kinds.
    let want = '';
    await expect
      .poll(
        async () => {
          await page.click('#detail-load');
          await page.locator('#detail-body').waitFor({ state: 'visible' });
          want = await expected();
          return want.includes('—') ? 'waiting for both kinds' : (await page.locator('#detail-recall').textContent()) === want;
        },
        { timeout: 20_000, interval: 250 },
      )
      .toBe(true);
    expect(want).toMatch(/^unfiltered (0|1|0\.\d+) \(\d+ samples?\), filtered (0|1|0\.\d+) \(\d+ samples?\)$/);
    await shot('8-live-recall');
  });

  it('signing out leaves none of the data on the page', async () => {
    await page.click('#logout');
    await message(/Signed out/);
    expect(await page.locator('#map-legend li').count()).toBe(0);
    expect(await page.locator('#map-points tbody tr').count()).toBe(0);
    expect(await canvasBlank()).toBe(true);
    expect(await page.locator('#detail-body').isHidden()).toBe(true);
    expect(await page.locator('#console-history li').count()).toBe(0);
    expect(await page.locator('#console-response').textContent()).toBe('');
  });
});
