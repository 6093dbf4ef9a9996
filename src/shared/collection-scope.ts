// A scoped credential's collections as a hand-off carries them (issue 31): the coordinator decides
// with them on any collection a request reads besides the one it names (query's lookup_from), as
// the main thread decided on that one (src/main/auth/scopes.ts builds them).

import type { TenantGuard } from './protocol.js';

export interface ScopeEntryWire {
  /** A collection name, or (unless `exact`) a pattern where `*` stands for any run of characters. */
  pattern: string;
  exact: boolean;
  read: boolean;
  guard: TenantGuard | null;
}

/** Whether `name` is one of the pattern's collections. */
export function patternMatcher(pattern: string, exact: boolean): (name: string) => boolean {
  if (exact || !pattern.includes('*')) return (name) => name === pattern;
  const parts = pattern.split('*').map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&'));
  const re = new RegExp(`^${parts.join('.*')}$`, 's');
  return (name) => re.test(name);
}

/** The first entry whose pattern matches the collection, as the main thread decides. */
export function entryFor(entries: readonly ScopeEntryWire[], name: string): ScopeEntryWire | undefined {
  return entries.find((e) => patternMatcher(e.pattern, e.exact)(name));
}

/** The refusals of a scoped credential on a collection, worded once for the main thread and the coordinator. */
export const noAccessTo = (name: string): string => `this credential has no access to collection "${name}"`;
export const lacksOn = (permission: string, name: string): string => `this credential lacks the ${permission} permission on collection "${name}"`;
