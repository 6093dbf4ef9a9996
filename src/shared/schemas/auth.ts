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

/**
 * One collection of a scoped key: a name or a `*` pattern, its permission (read, write), and an
 * optional tenant filter (Qdrant's filter JSON) that binds every request on it (docs/auth.md).
 */
export const ScopeEntryBody = Type.Object(
  {
    collection: Type.String({ minLength: 1, maxLength: 255 }),
    permission: Type.String(),
    filter: Type.Optional(Type.Union([Type.Object({}, { additionalProperties: true }), Type.Null()])),
  },
  { additionalProperties: false },
);
export type ScopeEntryBody = Static<typeof ScopeEntryBody>;

/** POST /auth/api_key. `permission` is required unless `scope` is given (then it is the key's rights outside collections). */
export const CreateApiKeyBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 256 }),
    description: Type.Optional(Type.String({ maxLength: 4096 })),
    will_expire: Type.Optional(Type.Boolean()),
    expires_in_seconds: Type.Optional(Type.Integer()),
    permission: Type.Optional(Type.String()),
    scope: Type.Optional(Type.Array(ScopeEntryBody)),
  },
  { additionalProperties: false },
);
export type CreateApiKeyBody = Static<typeof CreateApiKeyBody>;

/** PATCH /auth/api_key/{token_id}: the fields given replace the key's; `scope: null` makes it unscoped. */
export const UpdateApiKeyBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
    description: Type.Optional(Type.String({ maxLength: 4096 })),
    permission: Type.Optional(Type.String()),
    scope: Type.Optional(Type.Union([Type.Array(ScopeEntryBody), Type.Null()])),
  },
  { additionalProperties: false },
);
export type UpdateApiKeyBody = Static<typeof UpdateApiKeyBody>;

/** A scope entry as the list shows it. */
export interface ScopeEntryInfo {
  collection: string;
  permission: string;
  filter?: unknown;
}

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
  /** Present on a scoped key only: the collections it may use. */
  scope?: ScopeEntryInfo[];
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
  scope?: ScopeEntryInfo[];
}
