// checkStorageSettings on its own: a setting Quiver cannot apply is refused with its 400, and a
// PATCH of a collection that stored such a setting back when it was accepted and ignored is
// refused only for what the PATCH brings.

import { describe, expect, it } from 'vitest';
import { checkStorageSettings } from '../../../src/main/service/storage-settings.js';
import { QuiverError } from '../../../src/shared/errors.js';
import { DEFAULT_HNSW, type CollectionConfig } from '../../../src/shared/types.js';

const config = (over: Partial<CollectionConfig> = {}): CollectionConfig => ({
  vectors: { '': { size: 4, distance: 'Dot' } },
  sparse_vectors: {},
  shard_number: 1,
  hnsw_config: { ...DEFAULT_HNSW },
  on_disk_payload: true,
  payload_schema: {},
  ...over,
});

function refusal(f: () => void): string | null {
  try {
    f();
    return null;
  } catch (e) {
    expect(e).toBeInstanceOf(QuiverError);
    expect((e as QuiverError).code).toBe('BadInput');
    return (e as Error).message;
  }
}

describe('checkStorageSettings', () => {
  const graphOnDisk = config({ hnsw_config: { ...DEFAULT_HNSW, on_disk: true } });
  const vectorOnDisk = config({ vectors: { '': { size: 4, distance: 'Dot', on_disk: true } } });

  it('refuses each setting it cannot apply, and takes the rest', () => {
    expect(refusal(() => checkStorageSettings(graphOnDisk))).toContain('hnsw_config.on_disk: true cannot apply');
    expect(refusal(() => checkStorageSettings(vectorOnDisk))).toContain('on_disk: true cannot apply to the unnamed vector');
    expect(refusal(() => checkStorageSettings(config({ sparse_vectors: { s: { modifier: 'none', index: { on_disk: true } } } })))).toContain("sparse vector 's'");
    expect(refusal(() => checkStorageSettings(config()))).toBeNull();
    // On disk without a graph: applied.
    expect(refusal(() => checkStorageSettings(config({ vectors: { '': { size: 4, distance: 'Dot', on_disk: true, hnsw_config: { m: 0 } } } })))).toBeNull();
  });

  it('on PATCH, a refusal the collection already had (stored when it was ignored) does not block other changes; a new one does', () => {
    const patched = { ...graphOnDisk, shard_number: 2 };
    expect(refusal(() => checkStorageSettings(patched, graphOnDisk))).toBeNull();
    expect(refusal(() => checkStorageSettings({ ...patched, vectors: vectorOnDisk.vectors }, graphOnDisk))).toContain('on_disk: true cannot apply to the unnamed vector');
  });
});
