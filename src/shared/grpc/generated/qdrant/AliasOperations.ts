// Original file: proto/collections.proto

import type { CreateAlias as _qdrant_CreateAlias, CreateAlias__Output as _qdrant_CreateAlias__Output } from '../qdrant/CreateAlias.js';
import type { RenameAlias as _qdrant_RenameAlias, RenameAlias__Output as _qdrant_RenameAlias__Output } from '../qdrant/RenameAlias.js';
import type { DeleteAlias as _qdrant_DeleteAlias, DeleteAlias__Output as _qdrant_DeleteAlias__Output } from '../qdrant/DeleteAlias.js';

export interface AliasOperations {
  'create_alias'?: (_qdrant_CreateAlias | null);
  'rename_alias'?: (_qdrant_RenameAlias | null);
  'delete_alias'?: (_qdrant_DeleteAlias | null);
  'action'?: "create_alias"|"rename_alias"|"delete_alias";
}

export interface AliasOperations__Output {
  'create_alias'?: (_qdrant_CreateAlias__Output);
  'rename_alias'?: (_qdrant_RenameAlias__Output);
  'delete_alias'?: (_qdrant_DeleteAlias__Output);
  'action'?: "create_alias"|"rename_alias"|"delete_alias";
}
