// Service `qdrant.Qdrant`: the health check Qdrant's clients call first (and to check versions).
// Answered before the engine is ready, as REST's health endpoints are.

import type { QdrantHandlers } from '../../shared/grpc/generated/qdrant/Qdrant.js';
import { BUILD_COMMIT, QDRANT_API_VERSION, TITLE } from '../version.js';
import { unary, type GrpcContext } from './unary.js';

export const HEALTH_CHECK_PATH = '/qdrant.Qdrant/HealthCheck';

export function healthHandlers({ log }: GrpcContext): QdrantHandlers {
  return {
    HealthCheck: unary(log, async () => ({ title: TITLE, version: QDRANT_API_VERSION, commit: BUILD_COMMIT })),
  };
}
