// Payload key paths (`a.b[].c`, `a[0]`, `a."b.c"`), with Qdrant's grammar: a first key, then any
// number of `.key`, `[n]` or `[]`. A bare key is made of letters, digits (any script), `_` and
// `-`; anything else (spaces, dots, control characters) needs a quoted key `"..."`, which may
// hold any character but `"` and `\`. An empty string, `a..b`, `a.`, `[]` alone, `a[`, `a[x]`
// are not paths. Parsed once in the main thread, so a bad key is a 400 and never reaches the
// evaluator.

import { QuiverError } from './errors.js';

export type PathItem = { key: string } | { index: number } | { wildcard: true };

const BARE = /^[\p{Alphabetic}\p{N}_-]+/u;
// Qdrant's index is a usize; a larger number is not a path.
const MAX_INDEX = 18446744073709551615n;

/** The items of a key path, or null when the string is not a path. The first item is a key. */
export function parseJsonPath(s: string): PathItem[] | null {
  const items: PathItem[] = [];
  let i = 0;
  const key = (): string | null => {
    if (s[i] === '"') {
      const end = s.indexOf('"', i + 1);
      if (end < 0) return null;
      const inner = s.slice(i + 1, end);
      if (inner.includes('\\')) return null;
      i = end + 1;
      return inner;
    }
    const m = BARE.exec(s.slice(i));
    if (m === null) return null;
    i += m[0].length;
    return m[0];
  };
  const first = key();
  if (first === null) return null;
  items.push({ key: first });
  while (i < s.length) {
    const c = s[i];
    if (c === '.') {
      i++;
      const k = key();
      if (k === null) return null;
      items.push({ key: k });
    } else if (c === '[') {
      const close = s.indexOf(']', i);
      if (close < 0) return null;
      const digits = s.slice(i + 1, close);
      if (digits === '') items.push({ wildcard: true });
      else if (/^[0-9]+$/.test(digits) && BigInt(digits) <= MAX_INDEX) items.push({ index: Number(digits) });
      else return null;
      i = close + 1;
    } else {
      return null;
    }
  }
  return items;
}

/** A key as it can be shown in a message: control characters escaped, long keys cut. */
export function showKey(s: string): string {
  const shown = JSON.stringify(s.length > 200 ? `${s.slice(0, 200)}...` : s);
  return `'${shown.slice(1, -1)}'`;
}

/** The message for a string that is not a path, worded as Qdrant's. */
export function invalidPathMessage(s: string): string {
  return `Invalid json path: ${showKey(s)}`;
}

/** Refuses (400) a string that is not a path, the message led by where it was given. */
export function requireJsonPath(key: string, where: string): void {
  if (parseJsonPath(key) === null) throw QuiverError.badInput(`${where}: ${invalidPathMessage(key)}`);
}
