import { describe, expect, it } from 'vitest';
import { QuiverError } from '../../../src/shared/errors.js';
import { MAX_RESULT_WINDOW, checkResultWindow } from '../../../src/workers/service/limits.js';

describe('checkResultWindow', () => {
  it('lets a window up to the maximum through', () => {
    expect(() => checkResultWindow(MAX_RESULT_WINDOW, null)).not.toThrow();
    expect(() => checkResultWindow(MAX_RESULT_WINDOW - 10, 10)).not.toThrow();
    expect(() => checkResultWindow(0, 0)).not.toThrow();
  });

  it('refuses limit + offset past the maximum, naming both (search, query)', () => {
    const err = (() => {
      try {
        checkResultWindow(MAX_RESULT_WINDOW, 1);
      } catch (e) {
        return e;
      }
      return null;
    })();
    expect(err).toBeInstanceOf(QuiverError);
    expect((err as QuiverError).code).toBe('BadInput');
    expect((err as QuiverError).message).toBe(`limit + offset must not exceed ${MAX_RESULT_WINDOW}, got ${MAX_RESULT_WINDOW + 1}`);
  });

  it('refuses a limit past the maximum when the read has no offset (scroll)', () => {
    expect(() => checkResultWindow(MAX_RESULT_WINDOW + 5, null)).toThrow(`limit must not exceed ${MAX_RESULT_WINDOW}, got ${MAX_RESULT_WINDOW + 5}`);
  });
});
