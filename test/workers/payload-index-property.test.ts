// Property tests of the payload indexes against the filter evaluator: over random mixed-type
// payloads and filters, through removes and re-adds, candidates are always a superset of the
// matches, the incrementally maintained indexes plan as a fresh build does, and a match an
// index decides per slot (FieldIndex.matcher) is decided as the payload decides it.

import { describe, expect, it } from 'vitest';
import { createFieldIndex, planCandidates, type FieldIndex } from '../../src/workers/index/payload-index.js';
import { compileFilter, fieldValues, parsePath, type FilterView, type PathPart } from '../../src/workers/shard/filter-eval.js';
import type { Filter } from '../../src/shared/filter.js';
import type { FieldIndexSchema, JsonValue, Payload, PointId } from '../../src/shared/types.js';
import { add, build } from '../helpers/payload-index.js';
import { rng } from '../helpers/random.js';
import { condFor, geoPoint, INDEXED_KEYS, pick, randomFilter, randomPayload, SCHEMAS, value, type R } from '../helpers/payload-random.js';

// ---- property: candidates cover the evaluator ---------------------------------------------------

interface Config {
  name: string;
  schemas: Map<string, FieldIndexSchema>;
}

function configs(r: R): Config[] {
  const out: Config[] = SCHEMAS.map((s) => ({
    name: s.type === 'text' ? `text/${JSON.stringify(s.text)}` : s.type,
    schemas: new Map(INDEXED_KEYS.map((k) => [k, s])),
  }));
  for (let i = 0; i < 3; i++) {
    out.push({ name: `mixed ${i}`, schemas: new Map(INDEXED_KEYS.filter(() => r() < 0.8).map((k) => [k, pick(r, SCHEMAS)])) });
  }
  return out;
}

/** A shard's slots, payloads and, per config, the incrementally maintained indexes. */
class World {
  readonly payloads: (Payload | null)[] = [];
  readonly live = new Set<number>();
  readonly ids: PointId[] = [];
  readonly indexes: Map<string, FieldIndex>[];
  readonly paths = new Map<string, PathPart[]>(INDEXED_KEYS.map((k) => [k, parsePath(k)]));

  constructor(readonly configs: Config[]) {
    this.indexes = configs.map((c) => new Map([...c.schemas].map(([k, s]) => [k, createFieldIndex(s)])));
  }

  idOf(slot: number): PointId {
    return slot % 4 === 0 ? `00000000-0000-4000-8000-${String(slot).padStart(12, '0')}` : slot + 1;
  }

  /** Writes a slot as the shard does: every index forgets it, then learns its new payload. */
  put(slot: number, payload: Payload | null): void {
    this.ids[slot] = this.idOf(slot);
    this.live.add(slot);
    this.payloads[slot] = payload;
    for (const m of this.indexes) {
      for (const [key, index] of m) {
        index.remove(slot);
        if (payload) index.add(slot, fieldValues(payload, this.paths.get(key)!));
      }
    }
  }

  delete(slot: number): void {
    this.live.delete(slot);
    this.payloads[slot] = null;
    for (const m of this.indexes) for (const index of m.values()) index.remove(slot);
  }

  /** Indexes built from scratch over the live payloads, in slot order. */
  fresh(i: number): Map<string, FieldIndex> {
    const m = new Map<string, FieldIndex>();
    for (const [key, schema] of this.configs[i]!.schemas) {
      const index = createFieldIndex(schema);
      for (const slot of [...this.live].sort((x, y) => x - y)) {
        const p = this.payloads[slot];
        if (p) index.add(slot, fieldValues(p, this.paths.get(key)!));
      }
      m.set(key, index);
    }
    return m;
  }

  slotsOfIds = (want: readonly PointId[]): Set<number> => {
    const w = new Set(want);
    return new Set([...this.live].filter((s) => w.has(this.ids[s]!)));
  };

  view(i: number): FilterView {
    const schemas = this.configs[i]!.schemas;
    return {
      payload: (slot) => this.payloads[slot] ?? null,
      id: (slot) => this.ids[slot]!,
      hasVector: () => false,
      textIndex: (key) => {
        const s = schemas.get(key);
        return s?.type === 'text' ? s.text : undefined;
      },
    };
  }
}

interface Stats {
  narrowed: Map<string, number>;
  /** Conditions an index decided per slot (FieldIndex.matcher), instead of the payload. */
  decided: number;
}

/** Every filter, every config: candidates null or a superset of the matches, all live, as a fresh build's. */
function checkAll(world: World, filters: Filter[], stats: Stats, phase: string): string[] {
  const failures: string[] = [];
  const live = [...world.live].sort((x, y) => x - y);
  const matchCache = new Map<string, number[]>();
  world.configs.forEach((config, i) => {
    const indexes = world.indexes[i]!;
    const fresh = world.fresh(i);
    const view = world.view(i);
    const textSig = JSON.stringify([...config.schemas].filter(([, s]) => s.type === 'text'));
    const byIndex: FilterView = {
      ...view,
      indexMatch: (key, match) => {
        const test = indexes.get(key)?.matcher?.(match) ?? null;
        if (test !== null) stats.decided++;
        return test;
      },
    };
    filters.forEach((filter, f) => {
      // The indexes' per-slot answers must be the payload's, slot for slot.
      const plainPred = compileFilter(filter, view);
      const indexPred = compileFilter(filter, byIndex);
      for (const s of live) {
        if (plainPred(s) !== indexPred(s)) failures.push(`slot ${s} ${JSON.stringify(world.payloads[s])}: the index decides ${indexPred(s)}: ${phase}, ${config.name}, filter #${f} ${JSON.stringify(filter)}`);
      }
      const cand = planCandidates(filter, indexes, world.slotsOfIds);
      const rebuilt = planCandidates(filter, fresh, world.slotsOfIds);
      const where = `${phase}, ${config.name}, filter #${f} ${JSON.stringify(filter)}`;
      if ((cand === null) !== (rebuilt === null) || (cand && [...cand].sort().join() !== [...rebuilt!].sort().join())) {
        failures.push(`maintained != rebuilt: ${where}`);
      }
      if (cand === null) return;
      // Count the filters the indexes narrow (beyond what has_id alone gives).
      const byIdsOnly = planCandidates(filter, new Map(), world.slotsOfIds);
      if (cand.size < live.length && (byIdsOnly === null || cand.size < byIdsOnly.size)) {
        stats.narrowed.set(config.name, (stats.narrowed.get(config.name) ?? 0) + 1);
      }
      for (const s of cand) if (!world.live.has(s)) failures.push(`dead slot ${s} is a candidate: ${where}`);
      // The text indexes only change how text and phrase matches evaluate.
      const key = /"(text|phrase)":/.test(JSON.stringify(filter)) ? `${textSig}#${f}` : `#${f}`;
      let matches = matchCache.get(key);
      if (matches === undefined) {
        const pred = compileFilter(filter, view);
        matches = live.filter((s) => pred(s));
        matchCache.set(key, matches);
      }
      for (const s of matches) {
        if (!cand.has(s)) failures.push(`slot ${s} ${JSON.stringify(world.payloads[s])} matches but is no candidate: ${where}`);
      }
    });
  });
  return failures;
}

describe('property: one index, one condition', () => {
  const label = (s: FieldIndexSchema): string =>
    s.type === 'text' ? `text ${s.text!.tokenizer} min ${s.text!.min_token_len} max ${s.text!.max_token_len} lowercase ${s.text!.lowercase}` : s.type;
  it.each(SCHEMAS.map((schema) => ({ name: label(schema), schema })))(
    '$name: candidates cover the matches, through removes and re-adds',
    ({ schema }) => {
      const r = rng(7 + SCHEMAS.indexOf(schema));
      const N = 200;
      // Mostly points for a geo index, so that queries find some.
      const gen = (): JsonValue | undefined =>
        r() < 0.05 ? undefined : schema.type === 'geo' && r() < 0.7 ? (r() < 0.8 ? { ...geoPoint(r) } : [{ ...geoPoint(r) }, { ...geoPoint(r) }]) : value(r);
      const values = Array.from({ length: N }, gen);
      const index = build(schema, values);
      const conds = Array.from({ length: 200 }, () => condFor(r, schema));
      const textParams = schema.type === 'text' ? schema.text : undefined;
      const view: FilterView = {
        payload: (slot) => (values[slot] === undefined ? {} : { k: values[slot]! }),
        id: (slot) => slot,
        hasVector: () => false,
        textIndex: () => textParams,
      };
      const failures: string[] = [];
      let narrowed = 0;
      const check = (phase: string): void => {
        for (const cond of conds) {
          const c = index.candidates(cond);
          if (c === null) continue;
          if (c.size < N) narrowed++;
          const pred = compileFilter({ must: [cond] }, view);
          for (let s = 0; s < N; s++) {
            if (!c.has(s) && pred(s)) failures.push(`${phase}: slot ${s} ${JSON.stringify(values[s])} matches ${JSON.stringify(cond)}`);
          }
        }
      };
      check('built');
      for (let s = 0; s < N; s++) {
        if (r() < 0.4) {
          index.remove(s);
          values[s] = gen();
          add(index, s, values[s]);
        }
      }
      check('rewritten');
      expect(failures.slice(0, 5)).toEqual([]);
      expect(narrowed).toBeGreaterThan(80);
    },
  );
});

describe('property: candidates are a superset of the filter matches', () => {
  it('over random mixed-type payloads and filters, for every index type, through removes and re-adds', () => {
    const r = rng(20240611);
    const world = new World(configs(r));
    const N = 200;
    for (let s = 0; s < N; s++) world.put(s, randomPayload(r));
    const allIds = [...Array.from({ length: N + 30 }, (_, s) => world.idOf(s)), 999_999];
    const filters = Array.from({ length: 220 }, () => randomFilter(r, allIds));
    const stats: Stats = { narrowed: new Map(), decided: 0 };

    const failures = checkAll(world, filters, stats, 'initial');

    // Remove some slots, rewrite others (often with values of other types), re-add removed ones.
    const removed: number[] = [];
    for (let s = 0; s < N; s++) {
      const x = r();
      if (x < 0.25) {
        world.delete(s);
        removed.push(s);
      } else if (x < 0.5) {
        world.put(s, randomPayload(r));
      }
    }
    for (const s of removed) if (r() < 0.5) world.put(s, randomPayload(r));
    for (let s = N; s < N + 20; s++) world.put(s, randomPayload(r));
    failures.push(...checkAll(world, filters, stats, 'after removes and re-adds'));

    expect(failures.slice(0, 5)).toEqual([]);
    // Not vacuous: every config narrows a fair share of the filters.
    for (const config of world.configs) expect(stats.narrowed.get(config.name) ?? 0, config.name).toBeGreaterThan(10);
    expect(stats.decided).toBeGreaterThan(50);
  });
});
