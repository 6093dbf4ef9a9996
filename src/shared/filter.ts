// Qdrant's filter language, as it crosses the worker boundary after validation in the main
// thread. The evaluator lives in src/workers/shard/filter-eval.ts.

import type { PointId } from './types.js';

export interface Filter {
  must?: Condition[] | Condition;
  should?: Condition[] | Condition;
  must_not?: Condition[] | Condition;
  min_should?: { conditions: Condition[]; min_count: number };
}

export type Match =
  | { value: string | number | boolean }
  | { any: (string | number)[] }
  | { except: (string | number)[] }
  | { text: string }
  | { text_any: string }
  | { phrase: string }
  | { prefix: string };

export interface RangeCond {
  gt?: number | string | null;
  gte?: number | string | null;
  lt?: number | string | null;
  lte?: number | string | null;
}

export interface GeoPoint {
  lon: number;
  lat: number;
}

export interface FieldCondition {
  key: string;
  match?: Match;
  range?: RangeCond;
  geo_bounding_box?: { top_left: GeoPoint; bottom_right: GeoPoint };
  geo_radius?: { center: GeoPoint; radius: number };
  geo_polygon?: { exterior: { points: GeoPoint[] }; interiors?: { points: GeoPoint[] }[] };
  values_count?: { gt?: number; gte?: number; lt?: number; lte?: number };
  is_empty?: boolean;
  is_null?: boolean;
}

export type Condition =
  | FieldCondition
  | { is_empty: { key: string } }
  | { is_null: { key: string } }
  | { has_id: PointId[] }
  | { has_vector: string }
  /** Qdrant's slice of the id space (src/shared/point-slice.ts): `index` of `total`. */
  | { slice: { total: number; index: number } }
  | { nested: { key: string; filter: Filter } }
  | { filter: Filter }
  | Filter;

