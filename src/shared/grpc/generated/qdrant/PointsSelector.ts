// Original file: proto/points.proto

import type { PointsIdsList as _qdrant_PointsIdsList, PointsIdsList__Output as _qdrant_PointsIdsList__Output } from '../qdrant/PointsIdsList.js';
import type { Filter as _qdrant_Filter, Filter__Output as _qdrant_Filter__Output } from '../qdrant/Filter.js';

export interface PointsSelector {
  'points'?: (_qdrant_PointsIdsList | null);
  'filter'?: (_qdrant_Filter | null);
  'points_selector_one_of'?: "points"|"filter";
}

export interface PointsSelector__Output {
  'points'?: (_qdrant_PointsIdsList__Output);
  'filter'?: (_qdrant_Filter__Output);
  'points_selector_one_of'?: "points"|"filter";
}
