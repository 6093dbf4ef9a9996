// The authentication endpoints (docs/interface.md section 4.1-4.6, docs/decisions.md section 3). Who may call each one is
// decided by the auth hook from the permission table before a handler runs; handlers only
// decode, call the AuthService and encode. They answer the simple-message envelope
// {status, message} (PATCH /auth/enabled: the data envelope), and their failures, fastify's own
// included, the auth error envelope {status: "error", message}: this plugin's error handler maps
// errors exactly as the root one does (toFailure) and differs only in the envelope.

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AdminPasswordBody, AuthEnabledBody, CreateApiKeyBody, LoginBody, TokenIdParams, UpdateApiKeyBody } from '../../../shared/schemas/auth.js';
import { authOf } from '../../auth/http.js';
import type { AuthService } from '../../auth/service.js';
import { validatorCompiler } from '../../../shared/validation.js';
import { ok, retryAfterFor, toFailure } from '../../../shared/envelope.js';

export interface AuthMessage {
  status: 'success' | 'error';
  message: string;
}

export function authMessage(status: 'success' | 'error', message: string): AuthMessage {
  return { status, message };
}

/** Auth bodies are a few hundred bytes; login is open to anyone, so no 32 MiB JSON to parse. */
const bodyLimit = 64 * 1024;

export const authRoutes: FastifyPluginAsyncTypebox<{ auth: AuthService }> = async (app, { auth }) => {
  // Quiver's own API: every bad body is a 400 (docs/interface.md section 4), no Qdrant 422.
  app.setValidatorCompiler(validatorCompiler({ qdrant422: false }));
  app.setErrorHandler((err, req, reply) => {
    const f = toFailure(err);
    if (f.internal) req.log.error({ err }, f.message);
    else req.log.info({ status: f.status }, f.message);
    retryAfterFor(reply, f.status, err);
    void reply.code(f.status).send(authMessage('error', f.message));
  });

  app.post('/auth/login', { bodyLimit, schema: { body: LoginBody } }, async (req) => {
    const jwt = await auth.doLogin(req.ip, req.body.username, req.body.password);
    return { ...authMessage('success', 'Login successful'), ...jwt };
  });

  app.post('/auth/admin', { bodyLimit, schema: { body: AdminPasswordBody } }, async (req) => {
    const outcome = await auth.doCreateAdmin(authOf(req), req.body.password);
    return authMessage('success', outcome === 'created' ? 'Admin user created' : 'Admin password updated');
  });

  app.post('/auth/admin/reset-password', { bodyLimit, schema: { body: AdminPasswordBody } }, async (req) => {
    await auth.doResetPassword(authOf(req), req.body.password);
    return authMessage('success', 'Admin password updated; earlier admin JWTs are revoked');
  });

  app.patch('/auth/enabled', { bodyLimit, schema: { body: AuthEnabledBody } }, async (req) =>
    ok(await auth.doSetEnabled(authOf(req), req.body.enabled), req.t0),
  );

  app.post('/auth/api_key', { bodyLimit, schema: { body: CreateApiKeyBody } }, async (req) => auth.doCreateApiKey(authOf(req), req.body));

  app.get('/auth/api_keys', async (req) => auth.doListApiKeys(authOf(req)));

  app.delete('/auth/api_key/:token_id', { bodyLimit, schema: { params: TokenIdParams } }, async (req) => {
    await auth.doDeleteApiKey(authOf(req), req.params.token_id);
    return authMessage('success', `Access token ${req.params.token_id} deleted`);
  });

  app.patch('/auth/api_key/:token_id', { bodyLimit, schema: { params: TokenIdParams, body: UpdateApiKeyBody } }, async (req) =>
    auth.doUpdateApiKey(authOf(req), req.params.token_id, req.body),
  );

  app.post('/auth/api_key/:token_id/rotate', { bodyLimit, schema: { params: TokenIdParams } }, async (req) =>
    auth.doRotateApiKey(authOf(req), req.params.token_id),
  );
};
