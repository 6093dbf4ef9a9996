// Original file: proto/points.proto


export interface FacetCounts {
  'collection_name'?: (string);
}

export interface FacetCounts__Output {
  'collection_name'?: (string);
}
