// One raw hnswlib-node build measured in a process of its own (bench/lib/raw.ts): the dataset is
// made again from its spec (deterministic), the ground truth comes with the config.

import { readConfig, reportResult } from './child-io.js';
import { makeDataset } from './dataset.js';
import { measureBuild, type RawChildConfig } from './raw.js';

const c = readConfig<RawChildConfig>();
reportResult(measureBuild(c.kind, makeDataset(c.spec), c.truth, c.opts));
