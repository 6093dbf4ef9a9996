// The main thread's Engine, split by concern under src/main/engine/ (engine/engine.ts says which
// file holds what). This module is the one the rest of the code imports it from.

export { Engine, type CollectionDefaults, type EngineOptions } from './engine/engine.js';
export type { CollectionLoad, StartupReport } from './engine/start.js';
export type { CopyInfo } from './engine/replicas.js';
export { NO_EVENTS, type EngineEvents, type ReplicaEventLevel } from './engine/events.js';
export { HandedOffWrites } from './engine/handed-off.js';
export { LocalPointEngine, LoggedPointEngine, localPoints, loggedPoints, type MainPointEngine, type PointEngineParts, type PointMode } from './engine/point-engines.js';
export { ClusterPointEngine, clusterPoints } from './engine/cluster-point-engine.js';
