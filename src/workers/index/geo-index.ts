// The geo payload index: points bucketed in 1-degree grid cells. A bounding box, radius or
// polygon query is widened to the cells its bounding box covers, so its candidates are a
// superset of the matches; a query that would cover too many cells, or reaches a pole, does not
// narrow (null). Out-of-range points are kept with the other-typed slots, seen by every query.

import type { FieldCondition, GeoPoint } from '../../shared/filter.js';
import type { FieldIndexSchema, JsonValue } from '../../shared/types.js';
import { Postings, TypedIndex, type FieldIndex } from './field-index.js';

const CELL = 1; // degrees
const MAX_CELLS = 20_000;

function cellOf(p: GeoPoint): string {
  return `${Math.floor(p.lat / CELL)}:${Math.floor(p.lon / CELL)}`;
}

/** Geo points bucketed in 1-degree cells; a query collects the cells its bounding box covers. */
export class GeoIndex extends TypedIndex implements FieldIndex {
  readonly schema: FieldIndexSchema;
  readonly #cells = new Postings<string>();

  constructor(schema: FieldIndexSchema) {
    super();
    this.schema = schema;
  }

  get points(): number {
    return this.#cells.slots;
  }

  get bytes(): number {
    return this.#cells.bytes;
  }

  add(slot: number, values: readonly JsonValue[]): void {
    const cells = new Set<string>();
    let accepted = 0;
    for (const v of values) {
      if (v === null || typeof v !== 'object' || Array.isArray(v)) continue;
      const { lon, lat } = v;
      // Out-of-range points stay with the other-typed ones: no cell holds them, every query sees them.
      if (typeof lon === 'number' && typeof lat === 'number' && Math.abs(lon) <= 180 && Math.abs(lat) <= 90) {
        cells.add(cellOf({ lon, lat }));
        accepted++;
      }
    }
    this.noteOthers(slot, values, accepted);
    this.#cells.add(slot, cells);
  }

  remove(slot: number): void {
    this.#cells.remove(slot);
    this.forgetOthers(slot);
  }

  /** Slots in cells overlapping lat [south, north] x lon [west, east] (west > east: across the antimeridian). */
  #box(south: number, north: number, west: number, east: number): Set<number> | null {
    const lonRanges: [number, number][] = west <= east ? [[west, east]] : [[west, 180], [-180, east]];
    const lat0 = Math.floor(south / CELL);
    const lat1 = Math.floor(north / CELL);
    let count = 0;
    for (const [w, e] of lonRanges) count += (lat1 - lat0 + 1) * (Math.floor(e / CELL) - Math.floor(w / CELL) + 1);
    if (count > MAX_CELLS) return null;
    const out = new Set<number>();
    for (const [w, e] of lonRanges) {
      for (let la = lat0; la <= lat1; la++) {
        for (let lo = Math.floor(w / CELL); lo <= Math.floor(e / CELL); lo++) {
          for (const s of this.#cells.get(`${la}:${lo}`) ?? []) out.add(s);
        }
      }
    }
    return this.withOthers(out);
  }

  candidates(cond: FieldCondition): Set<number> | null {
    if (cond.geo_bounding_box !== undefined) {
      const { top_left: tl, bottom_right: br } = cond.geo_bounding_box;
      return this.#box(br.lat, tl.lat, tl.lon, br.lon);
    }
    if (cond.geo_radius !== undefined) {
      const { center, radius } = cond.geo_radius;
      const dLat = radius / 111_000 + 0.01;
      const south = center.lat - dLat;
      const north = center.lat + dLat;
      if (south <= -89 || north >= 89) return null; // near a pole every longitude may be in reach
      const cos = Math.min(Math.cos((south * Math.PI) / 180), Math.cos((north * Math.PI) / 180));
      const dLon = radius / (111_000 * cos) + 0.01;
      if (dLon >= 180) return null;
      let west = center.lon - dLon;
      let east = center.lon + dLon;
      if (west < -180) west += 360;
      if (east > 180) east -= 360;
      return this.#box(south, north, west, east);
    }
    if (cond.geo_polygon !== undefined) {
      const pts = cond.geo_polygon.exterior.points;
      const lats = pts.map((p) => p.lat);
      const lons = pts.map((p) => p.lon);
      return this.#box(Math.min(...lats), Math.max(...lats), Math.min(...lons), Math.max(...lons));
    }
    return null;
  }
}
