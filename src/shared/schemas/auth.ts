// Request shapes of the authentication endpoints (docs/interface.md section 4.1-4.6, docs/decisions.md section 3). The
// schemas check types and presence; the rules with their own messages (password policy,
// permission names, expiry bounds) are checked by src/main/auth so that gRPC shares them.

import Type, { type Static } from 'typebox';

/** POST /auth/admin and POST /auth/admin/reset-password. */
export const AdminPasswordBody = Type.Object({ password: Type.String() }, { additionalProperties: false });
export type AdminPasswordBody = Static<typeof AdminPasswordBody>;

/** POST /auth/login. */
export const LoginBody = Type.Object({ username: Type.String(), password: Type.String() }, { additionalProperties: false });
export type LoginBody = Static<typeof LoginBody>;

/** PATCH /auth/enabled. */
export const AuthEnabledBody = Type.Object({ enabled: Type.Boolean() }, { additionalProperties: false });
export type AuthEnabledBody = Static<typeof AuthEnabledBody>;

/** POST /auth/api_key. */
export const CreateApiKeyBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 256 }),
    description: Type.Optional(Type.String({ maxLength: 4096 })),
    will_expire: Type.Optional(Type.Boolean()),
    expires_in_seconds: Type.Optional(Type.Integer()),
    permission: Type.String(),
  },
  { additionalProperties: false },
);
export type CreateApiKeyBody = Static<typeof CreateApiKeyBody>;

/** DELETE /auth/api_key/{token_id}, POST /auth/api_key/{token_id}/rotate. */
export const TokenIdParams = Type.Object({ token_id: Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }) });
export type TokenIdParams = Static<typeof TokenIdParams>;

// Response shapes of the API key endpoints: the auth service returns them and the client reads them.

/** A list entry of GET /auth/api_keys (docs/interface.md section 4.2). */
export interface ApiKeyInfo {
  id: number;
  name: string;
  description: string;
  created_at: string;
  expired_at: string | null;
  will_expire: boolean;
  permission: string;
}

/** The answer of POST /auth/api_key and of rotation (docs/interface.md section 4.1): the only place a raw key appears. */
export interface ApiKeyCreated {
  id: number;
  name: string;
  description: string;
  api_key: string;
  created_at: string;
  expired_at: string | null;
  will_expire: boolean;
  permission: string;
}
