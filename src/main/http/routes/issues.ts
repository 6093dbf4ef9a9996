// Qdrant's issues API: GET /issues lists what slow filtered reads found unindexed, DELETE /issues
// clears them (src/main/service/issues.ts).

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ok } from '../../../shared/envelope.js';
import type { Engine } from '../../engine.js';
import { doClearIssues, doIssues } from '../../service/issues.js';

export const issueRoutes: FastifyPluginAsyncTypebox<{ engine: Engine }> = async (app, { engine }) => {
  app.get('/issues', async (req) => ok(await doIssues(engine), req.t0));
  app.delete('/issues', async (req) => ok(await doClearIssues(engine), req.t0));
};
