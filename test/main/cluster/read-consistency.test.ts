// A read's `consistency` (REST query value, gRPC read_consistency) as cluster mode reads it: the
// default factor 1 reads what the replica applied, anything stronger reads at the log's end; bad
// values answer 400 / INVALID_ARGUMENT naming them; an engine that cannot read across nodes
// (single-node mode) is used as it is, whatever the value.

import { describe, expect, it } from 'vitest';
import { engineAt, grpcReadLevel, restReadLevel } from '../../../src/shared/read-consistency.js';
import type { PointEngine } from '../../../src/shared/point-engine.js';
import { QuiverError } from '../../../src/shared/errors.js';

describe('read consistency', () => {
  it('REST: absent and 1 read what is applied; majority, quorum, all and factors above 1 read at the log end', () => {
    expect(restReadLevel(undefined)).toBe('applied');
    expect(restReadLevel('1')).toBe('applied');
    for (const v of ['majority', 'quorum', 'all', '2', '3', 5]) expect(restReadLevel(v)).toBe('log-end');
  });

  it('REST: a malformed value is a 400 naming it', () => {
    for (const v of ['0', 'most', '-1', '1.5', '', ['all', 'all']]) {
      const err = (() => {
        try {
          restReadLevel(v);
        } catch (e) {
          return e;
        }
        return null;
      })() as QuiverError;
      expect(err).toBeInstanceOf(QuiverError);
      expect(err.code).toBe('BadInput');
      expect(err.message).toBe(`Bad request: consistency must be a number of replicas (1 or more) or one of majority, quorum, all; got ${JSON.stringify(v)}`);
    }
  });

  it('gRPC: a type reads at the log end, a factor above 1 too, a factor of 1 or none what is applied; 0 is refused', () => {
    expect(grpcReadLevel(undefined)).toBe('applied');
    expect(grpcReadLevel(null)).toBe('applied');
    expect(grpcReadLevel({ value: 'type', type: 'All' })).toBe('log-end');
    expect(grpcReadLevel({ value: 'type', type: 'Majority' })).toBe('log-end');
    expect(grpcReadLevel({ value: 'factor', factor: '1' })).toBe('applied');
    expect(grpcReadLevel({ value: 'factor', factor: '2' })).toBe('log-end');
    expect(() => grpcReadLevel({ value: 'factor', factor: '0' })).toThrow('read_consistency factor must be 1 or more, got 0');
  });

  it('an engine without atLogEnd (single node) is used as it is and the value is not even read', () => {
    const engine = {} as PointEngine;
    expect(engineAt(engine, () => { throw new Error('read'); })).toBe(engine);
  });

  it('an engine with atLogEnd gives its log-end view only for a strong consistency', () => {
    const view = {} as PointEngine;
    const engine = { atLogEnd: () => view } as unknown as PointEngine;
    expect(engineAt(engine, () => 'log-end')).toBe(view);
    expect(engineAt(engine, () => 'applied')).toBe(engine);
  });
});
