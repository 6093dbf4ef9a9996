// Original file: proto/qdrant.proto


export interface HealthCheckReply {
  'title'?: (string);
  'version'?: (string);
  'commit'?: (string);
  '_commit'?: "commit";
}

export interface HealthCheckReply__Output {
  'title'?: (string);
  'version'?: (string);
  'commit'?: (string);
  '_commit'?: "commit";
}
