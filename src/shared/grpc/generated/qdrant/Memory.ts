// Original file: proto/collections.proto

export const Memory = {
  MemoryUnknown: 'MemoryUnknown',
  Cold: 'Cold',
  Cached: 'Cached',
  Pinned: 'Pinned',
} as const;

export type Memory =
  | 'MemoryUnknown'
  | 0
  | 'Cold'
  | 1
  | 'Cached'
  | 2
  | 'Pinned'
  | 3

export type Memory__Output = typeof Memory[keyof typeof Memory]
