// Original file: proto/collections.proto


export interface UpdateCollectionClusterSetupResponse {
  'result'?: (boolean);
  'time'?: (number | string);
}

export interface UpdateCollectionClusterSetupResponse__Output {
  'result'?: (boolean);
  'time'?: (number);
}
