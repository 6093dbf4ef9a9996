// Original file: proto/qdrant.proto


export interface HealthCheckRequest {
}

export interface HealthCheckRequest__Output {
}
