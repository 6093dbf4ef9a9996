// Original file: proto/collections_service.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { ChangeAliases as _qdrant_ChangeAliases, ChangeAliases__Output as _qdrant_ChangeAliases__Output } from '../qdrant/ChangeAliases.js';
import type { CollectionClusterInfoRequest as _qdrant_CollectionClusterInfoRequest, CollectionClusterInfoRequest__Output as _qdrant_CollectionClusterInfoRequest__Output } from '../qdrant/CollectionClusterInfoRequest.js';
import type { CollectionClusterInfoResponse as _qdrant_CollectionClusterInfoResponse, CollectionClusterInfoResponse__Output as _qdrant_CollectionClusterInfoResponse__Output } from '../qdrant/CollectionClusterInfoResponse.js';
import type { CollectionExistsRequest as _qdrant_CollectionExistsRequest, CollectionExistsRequest__Output as _qdrant_CollectionExistsRequest__Output } from '../qdrant/CollectionExistsRequest.js';
import type { CollectionExistsResponse as _qdrant_CollectionExistsResponse, CollectionExistsResponse__Output as _qdrant_CollectionExistsResponse__Output } from '../qdrant/CollectionExistsResponse.js';
import type { CollectionOperationResponse as _qdrant_CollectionOperationResponse, CollectionOperationResponse__Output as _qdrant_CollectionOperationResponse__Output } from '../qdrant/CollectionOperationResponse.js';
import type { CreateCollection as _qdrant_CreateCollection, CreateCollection__Output as _qdrant_CreateCollection__Output } from '../qdrant/CreateCollection.js';
import type { CreateShardKeyRequest as _qdrant_CreateShardKeyRequest, CreateShardKeyRequest__Output as _qdrant_CreateShardKeyRequest__Output } from '../qdrant/CreateShardKeyRequest.js';
import type { CreateShardKeyResponse as _qdrant_CreateShardKeyResponse, CreateShardKeyResponse__Output as _qdrant_CreateShardKeyResponse__Output } from '../qdrant/CreateShardKeyResponse.js';
import type { DeleteCollection as _qdrant_DeleteCollection, DeleteCollection__Output as _qdrant_DeleteCollection__Output } from '../qdrant/DeleteCollection.js';
import type { DeleteShardKeyRequest as _qdrant_DeleteShardKeyRequest, DeleteShardKeyRequest__Output as _qdrant_DeleteShardKeyRequest__Output } from '../qdrant/DeleteShardKeyRequest.js';
import type { DeleteShardKeyResponse as _qdrant_DeleteShardKeyResponse, DeleteShardKeyResponse__Output as _qdrant_DeleteShardKeyResponse__Output } from '../qdrant/DeleteShardKeyResponse.js';
import type { GetCollectionInfoRequest as _qdrant_GetCollectionInfoRequest, GetCollectionInfoRequest__Output as _qdrant_GetCollectionInfoRequest__Output } from '../qdrant/GetCollectionInfoRequest.js';
import type { GetCollectionInfoResponse as _qdrant_GetCollectionInfoResponse, GetCollectionInfoResponse__Output as _qdrant_GetCollectionInfoResponse__Output } from '../qdrant/GetCollectionInfoResponse.js';
import type { ListAliasesRequest as _qdrant_ListAliasesRequest, ListAliasesRequest__Output as _qdrant_ListAliasesRequest__Output } from '../qdrant/ListAliasesRequest.js';
import type { ListAliasesResponse as _qdrant_ListAliasesResponse, ListAliasesResponse__Output as _qdrant_ListAliasesResponse__Output } from '../qdrant/ListAliasesResponse.js';
import type { ListCollectionAliasesRequest as _qdrant_ListCollectionAliasesRequest, ListCollectionAliasesRequest__Output as _qdrant_ListCollectionAliasesRequest__Output } from '../qdrant/ListCollectionAliasesRequest.js';
import type { ListCollectionsRequest as _qdrant_ListCollectionsRequest, ListCollectionsRequest__Output as _qdrant_ListCollectionsRequest__Output } from '../qdrant/ListCollectionsRequest.js';
import type { ListCollectionsResponse as _qdrant_ListCollectionsResponse, ListCollectionsResponse__Output as _qdrant_ListCollectionsResponse__Output } from '../qdrant/ListCollectionsResponse.js';
import type { ListShardKeysRequest as _qdrant_ListShardKeysRequest, ListShardKeysRequest__Output as _qdrant_ListShardKeysRequest__Output } from '../qdrant/ListShardKeysRequest.js';
import type { ListShardKeysResponse as _qdrant_ListShardKeysResponse, ListShardKeysResponse__Output as _qdrant_ListShardKeysResponse__Output } from '../qdrant/ListShardKeysResponse.js';
import type { UpdateCollection as _qdrant_UpdateCollection, UpdateCollection__Output as _qdrant_UpdateCollection__Output } from '../qdrant/UpdateCollection.js';
import type { UpdateCollectionClusterSetupRequest as _qdrant_UpdateCollectionClusterSetupRequest, UpdateCollectionClusterSetupRequest__Output as _qdrant_UpdateCollectionClusterSetupRequest__Output } from '../qdrant/UpdateCollectionClusterSetupRequest.js';
import type { UpdateCollectionClusterSetupResponse as _qdrant_UpdateCollectionClusterSetupResponse, UpdateCollectionClusterSetupResponse__Output as _qdrant_UpdateCollectionClusterSetupResponse__Output } from '../qdrant/UpdateCollectionClusterSetupResponse.js';

export interface CollectionsClient extends grpc.Client {
  CollectionClusterInfo(argument: _qdrant_CollectionClusterInfoRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_CollectionClusterInfoResponse__Output>): grpc.ClientUnaryCall;
  CollectionClusterInfo(argument: _qdrant_CollectionClusterInfoRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_qdrant_CollectionClusterInfoResponse__Output>): grpc.ClientUnaryCall;
  CollectionClusterInfo(argument: _qdrant_CollectionClusterInfoRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_CollectionClusterInfoResponse__Output>): grpc.ClientUnaryCall;
  CollectionClusterInfo(argument: _qdrant_CollectionClusterInfoRequest, callback: grpc.requestCallback<_qdrant_CollectionClusterInfoResponse__Output>): grpc.ClientUnaryCall;
  collectionClusterInfo(argument: _qdrant_CollectionClusterInfoRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_CollectionClusterInfoResponse__Output>): grpc.ClientUnaryCall;
  collectionClusterInfo(argument: _qdrant_CollectionClusterInfoRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_qdrant_CollectionClusterInfoResponse__Output>): grpc.ClientUnaryCall;
  collectionClusterInfo(argument: _qdrant_CollectionClusterInfoRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_CollectionClusterInfoResponse__Output>): grpc.ClientUnaryCall;
  collectionClusterInfo(argument: _qdrant_CollectionClusterInfoRequest, callback: grpc.requestCallback<_qdrant_CollectionClusterInfoResponse__Output>): grpc.ClientUnaryCall;
  
  CollectionExists(argument: _qdrant_CollectionExistsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_CollectionExistsResponse__Output>): grpc.ClientUnaryCall;
  CollectionExists(argument: _qdrant_CollectionExistsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_qdrant_CollectionExistsResponse__Output>): grpc.ClientUnaryCall;
  CollectionExists(argument: _qdrant_CollectionExistsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_CollectionExistsResponse__Output>): grpc.ClientUnaryCall;
  CollectionExists(argument: _qdrant_CollectionExistsRequest, callback: grpc.requestCallback<_qdrant_CollectionExistsResponse__Output>): grpc.ClientUnaryCall;
  collectionExists(argument: _qdrant_CollectionExistsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_CollectionExistsResponse__Output>): grpc.ClientUnaryCall;
  collectionExists(argument: _qdrant_CollectionExistsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_qdrant_CollectionExistsResponse__Output>): grpc.ClientUnaryCall;
  collectionExists(argument: _qdrant_CollectionExistsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_CollectionExistsResponse__Output>): grpc.ClientUnaryCall;
  collectionExists(argument: _qdrant_CollectionExistsRequest, callback: grpc.requestCallback<_qdrant_CollectionExistsResponse__Output>): grpc.ClientUnaryCall;
  
  Create(argument: _qdrant_CreateCollection, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_CollectionOperationResponse__Output>): grpc.ClientUnaryCall;
  Create(argument: _qdrant_CreateCollection, metadata: grpc.Metadata, callback: grpc.requestCallback<_qdrant_CollectionOperationResponse__Output>): grpc.ClientUnaryCall;
  Create(argument: _qdrant_CreateCollection, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_CollectionOperationResponse__Output>): grpc.ClientUnaryCall;
  Create(argument: _qdrant_CreateCollection, callback: grpc.requestCallback<_qdrant_CollectionOperationResponse__Output>): grpc.ClientUnaryCall;
  create(argument: _qdrant_CreateCollection, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_CollectionOperationResponse__Output>): grpc.ClientUnaryCall;
  create(argument: _qdrant_CreateCollection, metadata: grpc.Metadata, callback: grpc.requestCallback<_qdrant_CollectionOperationResponse__Output>): grpc.ClientUnaryCall;
  create(argument: _qdrant_CreateCollection, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_CollectionOperationResponse__Output>): grpc.ClientUnaryCall;
  create(argument: _qdrant_CreateCollection, callback: grpc.requestCallback<_qdrant_CollectionOperationResponse__Output>): grpc.ClientUnaryCall;
  
  CreateShardKey(argument: _qdrant_CreateShardKeyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_CreateShardKeyResponse__Output>): grpc.ClientUnaryCall;
  CreateShardKey(argument: _qdrant_CreateShardKeyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_qdrant_CreateShardKeyResponse__Output>): grpc.ClientUnaryCall;
  CreateShardKey(argument: _qdrant_CreateShardKeyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_CreateShardKeyResponse__Output>): grpc.ClientUnaryCall;
  CreateShardKey(argument: _qdrant_CreateShardKeyRequest, callback: grpc.requestCallback<_qdrant_CreateShardKeyResponse__Output>): grpc.ClientUnaryCall;
  createShardKey(argument: _qdrant_CreateShardKeyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_CreateShardKeyResponse__Output>): grpc.ClientUnaryCall;
  createShardKey(argument: _qdrant_CreateShardKeyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_qdrant_CreateShardKeyResponse__Output>): grpc.ClientUnaryCall;
  createShardKey(argument: _qdrant_CreateShardKeyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_CreateShardKeyResponse__Output>): grpc.ClientUnaryCall;
  createShardKey(argument: _qdrant_CreateShardKeyRequest, callback: grpc.requestCallback<_qdrant_CreateShardKeyResponse__Output>): grpc.ClientUnaryCall;
  
  Delete(argument: _qdrant_DeleteCollection, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_CollectionOperationResponse__Output>): grpc.ClientUnaryCall;
  Delete(argument: _qdrant_DeleteCollection, metadata: grpc.Metadata, callback: grpc.requestCallback<_qdrant_CollectionOperationResponse__Output>): grpc.ClientUnaryCall;
  Delete(argument: _qdrant_DeleteCollection, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_CollectionOperationResponse__Output>): grpc.ClientUnaryCall;
  Delete(argument: _qdrant_DeleteCollection, callback: grpc.requestCallback<_qdrant_CollectionOperationResponse__Output>): grpc.ClientUnaryCall;
  delete(argument: _qdrant_DeleteCollection, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_CollectionOperationResponse__Output>): grpc.ClientUnaryCall;
  delete(argument: _qdrant_DeleteCollection, metadata: grpc.Metadata, callback: grpc.requestCallback<_qdrant_CollectionOperationResponse__Output>): grpc.ClientUnaryCall;
  delete(argument: _qdrant_DeleteCollection, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_CollectionOperationResponse__Output>): grpc.ClientUnaryCall;
  delete(argument: _qdrant_DeleteCollection, callback: grpc.requestCallback<_qdrant_CollectionOperationResponse__Output>): grpc.ClientUnaryCall;
  
  DeleteShardKey(argument: _qdrant_DeleteShardKeyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_DeleteShardKeyResponse__Output>): grpc.ClientUnaryCall;
  DeleteShardKey(argument: _qdrant_DeleteShardKeyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_qdrant_DeleteShardKeyResponse__Output>): grpc.ClientUnaryCall;
  DeleteShardKey(argument: _qdrant_DeleteShardKeyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_DeleteShardKeyResponse__Output>): grpc.ClientUnaryCall;
  DeleteShardKey(argument: _qdrant_DeleteShardKeyRequest, callback: grpc.requestCallback<_qdrant_DeleteShardKeyResponse__Output>): grpc.ClientUnaryCall;
  deleteShardKey(argument: _qdrant_DeleteShardKeyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_DeleteShardKeyResponse__Output>): grpc.ClientUnaryCall;
  deleteShardKey(argument: _qdrant_DeleteShardKeyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_qdrant_DeleteShardKeyResponse__Output>): grpc.ClientUnaryCall;
  deleteShardKey(argument: _qdrant_DeleteShardKeyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_DeleteShardKeyResponse__Output>): grpc.ClientUnaryCall;
  deleteShardKey(argument: _qdrant_DeleteShardKeyRequest, callback: grpc.requestCallback<_qdrant_DeleteShardKeyResponse__Output>): grpc.ClientUnaryCall;
  
  Get(argument: _qdrant_GetCollectionInfoRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_GetCollectionInfoResponse__Output>): grpc.ClientUnaryCall;
  Get(argument: _qdrant_GetCollectionInfoRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_qdrant_GetCollectionInfoResponse__Output>): grpc.ClientUnaryCall;
  Get(argument: _qdrant_GetCollectionInfoRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_GetCollectionInfoResponse__Output>): grpc.ClientUnaryCall;
  Get(argument: _qdrant_GetCollectionInfoRequest, callback: grpc.requestCallback<_qdrant_GetCollectionInfoResponse__Output>): grpc.ClientUnaryCall;
  get(argument: _qdrant_GetCollectionInfoRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_GetCollectionInfoResponse__Output>): grpc.ClientUnaryCall;
  get(argument: _qdrant_GetCollectionInfoRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_qdrant_GetCollectionInfoResponse__Output>): grpc.ClientUnaryCall;
  get(argument: _qdrant_GetCollectionInfoRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_GetCollectionInfoResponse__Output>): grpc.ClientUnaryCall;
  get(argument: _qdrant_GetCollectionInfoRequest, callback: grpc.requestCallback<_qdrant_GetCollectionInfoResponse__Output>): grpc.ClientUnaryCall;
  
  List(argument: _qdrant_ListCollectionsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_ListCollectionsResponse__Output>): grpc.ClientUnaryCall;
  List(argument: _qdrant_ListCollectionsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_qdrant_ListCollectionsResponse__Output>): grpc.ClientUnaryCall;
  List(argument: _qdrant_ListCollectionsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_ListCollectionsResponse__Output>): grpc.ClientUnaryCall;
  List(argument: _qdrant_ListCollectionsRequest, callback: grpc.requestCallback<_qdrant_ListCollectionsResponse__Output>): grpc.ClientUnaryCall;
  list(argument: _qdrant_ListCollectionsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_ListCollectionsResponse__Output>): grpc.ClientUnaryCall;
  list(argument: _qdrant_ListCollectionsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_qdrant_ListCollectionsResponse__Output>): grpc.ClientUnaryCall;
  list(argument: _qdrant_ListCollectionsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_ListCollectionsResponse__Output>): grpc.ClientUnaryCall;
  list(argument: _qdrant_ListCollectionsRequest, callback: grpc.requestCallback<_qdrant_ListCollectionsResponse__Output>): grpc.ClientUnaryCall;
  
  ListAliases(argument: _qdrant_ListAliasesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_ListAliasesResponse__Output>): grpc.ClientUnaryCall;
  ListAliases(argument: _qdrant_ListAliasesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_qdrant_ListAliasesResponse__Output>): grpc.ClientUnaryCall;
  ListAliases(argument: _qdrant_ListAliasesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_ListAliasesResponse__Output>): grpc.ClientUnaryCall;
  ListAliases(argument: _qdrant_ListAliasesRequest, callback: grpc.requestCallback<_qdrant_ListAliasesResponse__Output>): grpc.ClientUnaryCall;
  listAliases(argument: _qdrant_ListAliasesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_ListAliasesResponse__Output>): grpc.ClientUnaryCall;
  listAliases(argument: _qdrant_ListAliasesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_qdrant_ListAliasesResponse__Output>): grpc.ClientUnaryCall;
  listAliases(argument: _qdrant_ListAliasesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_ListAliasesResponse__Output>): grpc.ClientUnaryCall;
  listAliases(argument: _qdrant_ListAliasesRequest, callback: grpc.requestCallback<_qdrant_ListAliasesResponse__Output>): grpc.ClientUnaryCall;
  
  ListCollectionAliases(argument: _qdrant_ListCollectionAliasesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_ListAliasesResponse__Output>): grpc.ClientUnaryCall;
  ListCollectionAliases(argument: _qdrant_ListCollectionAliasesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_qdrant_ListAliasesResponse__Output>): grpc.ClientUnaryCall;
  ListCollectionAliases(argument: _qdrant_ListCollectionAliasesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_ListAliasesResponse__Output>): grpc.ClientUnaryCall;
  ListCollectionAliases(argument: _qdrant_ListCollectionAliasesRequest, callback: grpc.requestCallback<_qdrant_ListAliasesResponse__Output>): grpc.ClientUnaryCall;
  listCollectionAliases(argument: _qdrant_ListCollectionAliasesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_ListAliasesResponse__Output>): grpc.ClientUnaryCall;
  listCollectionAliases(argument: _qdrant_ListCollectionAliasesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_qdrant_ListAliasesResponse__Output>): grpc.ClientUnaryCall;
  listCollectionAliases(argument: _qdrant_ListCollectionAliasesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_ListAliasesResponse__Output>): grpc.ClientUnaryCall;
  listCollectionAliases(argument: _qdrant_ListCollectionAliasesRequest, callback: grpc.requestCallback<_qdrant_ListAliasesResponse__Output>): grpc.ClientUnaryCall;
  
  ListShardKeys(argument: _qdrant_ListShardKeysRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_ListShardKeysResponse__Output>): grpc.ClientUnaryCall;
  ListShardKeys(argument: _qdrant_ListShardKeysRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_qdrant_ListShardKeysResponse__Output>): grpc.ClientUnaryCall;
  ListShardKeys(argument: _qdrant_ListShardKeysRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_ListShardKeysResponse__Output>): grpc.ClientUnaryCall;
  ListShardKeys(argument: _qdrant_ListShardKeysRequest, callback: grpc.requestCallback<_qdrant_ListShardKeysResponse__Output>): grpc.ClientUnaryCall;
  listShardKeys(argument: _qdrant_ListShardKeysRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_ListShardKeysResponse__Output>): grpc.ClientUnaryCall;
  listShardKeys(argument: _qdrant_ListShardKeysRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_qdrant_ListShardKeysResponse__Output>): grpc.ClientUnaryCall;
  listShardKeys(argument: _qdrant_ListShardKeysRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_ListShardKeysResponse__Output>): grpc.ClientUnaryCall;
  listShardKeys(argument: _qdrant_ListShardKeysRequest, callback: grpc.requestCallback<_qdrant_ListShardKeysResponse__Output>): grpc.ClientUnaryCall;
  
  Update(argument: _qdrant_UpdateCollection, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_CollectionOperationResponse__Output>): grpc.ClientUnaryCall;
  Update(argument: _qdrant_UpdateCollection, metadata: grpc.Metadata, callback: grpc.requestCallback<_qdrant_CollectionOperationResponse__Output>): grpc.ClientUnaryCall;
  Update(argument: _qdrant_UpdateCollection, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_CollectionOperationResponse__Output>): grpc.ClientUnaryCall;
  Update(argument: _qdrant_UpdateCollection, callback: grpc.requestCallback<_qdrant_CollectionOperationResponse__Output>): grpc.ClientUnaryCall;
  update(argument: _qdrant_UpdateCollection, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_CollectionOperationResponse__Output>): grpc.ClientUnaryCall;
  update(argument: _qdrant_UpdateCollection, metadata: grpc.Metadata, callback: grpc.requestCallback<_qdrant_CollectionOperationResponse__Output>): grpc.ClientUnaryCall;
  update(argument: _qdrant_UpdateCollection, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_CollectionOperationResponse__Output>): grpc.ClientUnaryCall;
  update(argument: _qdrant_UpdateCollection, callback: grpc.requestCallback<_qdrant_CollectionOperationResponse__Output>): grpc.ClientUnaryCall;
  
  UpdateAliases(argument: _qdrant_ChangeAliases, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_CollectionOperationResponse__Output>): grpc.ClientUnaryCall;
  UpdateAliases(argument: _qdrant_ChangeAliases, metadata: grpc.Metadata, callback: grpc.requestCallback<_qdrant_CollectionOperationResponse__Output>): grpc.ClientUnaryCall;
  UpdateAliases(argument: _qdrant_ChangeAliases, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_CollectionOperationResponse__Output>): grpc.ClientUnaryCall;
  UpdateAliases(argument: _qdrant_ChangeAliases, callback: grpc.requestCallback<_qdrant_CollectionOperationResponse__Output>): grpc.ClientUnaryCall;
  updateAliases(argument: _qdrant_ChangeAliases, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_CollectionOperationResponse__Output>): grpc.ClientUnaryCall;
  updateAliases(argument: _qdrant_ChangeAliases, metadata: grpc.Metadata, callback: grpc.requestCallback<_qdrant_CollectionOperationResponse__Output>): grpc.ClientUnaryCall;
  updateAliases(argument: _qdrant_ChangeAliases, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_CollectionOperationResponse__Output>): grpc.ClientUnaryCall;
  updateAliases(argument: _qdrant_ChangeAliases, callback: grpc.requestCallback<_qdrant_CollectionOperationResponse__Output>): grpc.ClientUnaryCall;
  
  UpdateCollectionClusterSetup(argument: _qdrant_UpdateCollectionClusterSetupRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_UpdateCollectionClusterSetupResponse__Output>): grpc.ClientUnaryCall;
  UpdateCollectionClusterSetup(argument: _qdrant_UpdateCollectionClusterSetupRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_qdrant_UpdateCollectionClusterSetupResponse__Output>): grpc.ClientUnaryCall;
  UpdateCollectionClusterSetup(argument: _qdrant_UpdateCollectionClusterSetupRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_UpdateCollectionClusterSetupResponse__Output>): grpc.ClientUnaryCall;
  UpdateCollectionClusterSetup(argument: _qdrant_UpdateCollectionClusterSetupRequest, callback: grpc.requestCallback<_qdrant_UpdateCollectionClusterSetupResponse__Output>): grpc.ClientUnaryCall;
  updateCollectionClusterSetup(argument: _qdrant_UpdateCollectionClusterSetupRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_UpdateCollectionClusterSetupResponse__Output>): grpc.ClientUnaryCall;
  updateCollectionClusterSetup(argument: _qdrant_UpdateCollectionClusterSetupRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_qdrant_UpdateCollectionClusterSetupResponse__Output>): grpc.ClientUnaryCall;
  updateCollectionClusterSetup(argument: _qdrant_UpdateCollectionClusterSetupRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_UpdateCollectionClusterSetupResponse__Output>): grpc.ClientUnaryCall;
  updateCollectionClusterSetup(argument: _qdrant_UpdateCollectionClusterSetupRequest, callback: grpc.requestCallback<_qdrant_UpdateCollectionClusterSetupResponse__Output>): grpc.ClientUnaryCall;
  
}

export interface CollectionsHandlers extends grpc.UntypedServiceImplementation {
  CollectionClusterInfo: grpc.handleUnaryCall<_qdrant_CollectionClusterInfoRequest__Output, _qdrant_CollectionClusterInfoResponse>;
  
  CollectionExists: grpc.handleUnaryCall<_qdrant_CollectionExistsRequest__Output, _qdrant_CollectionExistsResponse>;
  
  Create: grpc.handleUnaryCall<_qdrant_CreateCollection__Output, _qdrant_CollectionOperationResponse>;
  
  CreateShardKey: grpc.handleUnaryCall<_qdrant_CreateShardKeyRequest__Output, _qdrant_CreateShardKeyResponse>;
  
  Delete: grpc.handleUnaryCall<_qdrant_DeleteCollection__Output, _qdrant_CollectionOperationResponse>;
  
  DeleteShardKey: grpc.handleUnaryCall<_qdrant_DeleteShardKeyRequest__Output, _qdrant_DeleteShardKeyResponse>;
  
  Get: grpc.handleUnaryCall<_qdrant_GetCollectionInfoRequest__Output, _qdrant_GetCollectionInfoResponse>;
  
  List: grpc.handleUnaryCall<_qdrant_ListCollectionsRequest__Output, _qdrant_ListCollectionsResponse>;
  
  ListAliases: grpc.handleUnaryCall<_qdrant_ListAliasesRequest__Output, _qdrant_ListAliasesResponse>;
  
  ListCollectionAliases: grpc.handleUnaryCall<_qdrant_ListCollectionAliasesRequest__Output, _qdrant_ListAliasesResponse>;
  
  ListShardKeys: grpc.handleUnaryCall<_qdrant_ListShardKeysRequest__Output, _qdrant_ListShardKeysResponse>;
  
  Update: grpc.handleUnaryCall<_qdrant_UpdateCollection__Output, _qdrant_CollectionOperationResponse>;
  
  UpdateAliases: grpc.handleUnaryCall<_qdrant_ChangeAliases__Output, _qdrant_CollectionOperationResponse>;
  
  UpdateCollectionClusterSetup: grpc.handleUnaryCall<_qdrant_UpdateCollectionClusterSetupRequest__Output, _qdrant_UpdateCollectionClusterSetupResponse>;
  
}

export interface CollectionsDefinition extends grpc.ServiceDefinition {
  CollectionClusterInfo: MethodDefinition<_qdrant_CollectionClusterInfoRequest, _qdrant_CollectionClusterInfoResponse, _qdrant_CollectionClusterInfoRequest__Output, _qdrant_CollectionClusterInfoResponse__Output>
  CollectionExists: MethodDefinition<_qdrant_CollectionExistsRequest, _qdrant_CollectionExistsResponse, _qdrant_CollectionExistsRequest__Output, _qdrant_CollectionExistsResponse__Output>
  Create: MethodDefinition<_qdrant_CreateCollection, _qdrant_CollectionOperationResponse, _qdrant_CreateCollection__Output, _qdrant_CollectionOperationResponse__Output>
  CreateShardKey: MethodDefinition<_qdrant_CreateShardKeyRequest, _qdrant_CreateShardKeyResponse, _qdrant_CreateShardKeyRequest__Output, _qdrant_CreateShardKeyResponse__Output>
  Delete: MethodDefinition<_qdrant_DeleteCollection, _qdrant_CollectionOperationResponse, _qdrant_DeleteCollection__Output, _qdrant_CollectionOperationResponse__Output>
  DeleteShardKey: MethodDefinition<_qdrant_DeleteShardKeyRequest, _qdrant_DeleteShardKeyResponse, _qdrant_DeleteShardKeyRequest__Output, _qdrant_DeleteShardKeyResponse__Output>
  Get: MethodDefinition<_qdrant_GetCollectionInfoRequest, _qdrant_GetCollectionInfoResponse, _qdrant_GetCollectionInfoRequest__Output, _qdrant_GetCollectionInfoResponse__Output>
  List: MethodDefinition<_qdrant_ListCollectionsRequest, _qdrant_ListCollectionsResponse, _qdrant_ListCollectionsRequest__Output, _qdrant_ListCollectionsResponse__Output>
  ListAliases: MethodDefinition<_qdrant_ListAliasesRequest, _qdrant_ListAliasesResponse, _qdrant_ListAliasesRequest__Output, _qdrant_ListAliasesResponse__Output>
  ListCollectionAliases: MethodDefinition<_qdrant_ListCollectionAliasesRequest, _qdrant_ListAliasesResponse, _qdrant_ListCollectionAliasesRequest__Output, _qdrant_ListAliasesResponse__Output>
  ListShardKeys: MethodDefinition<_qdrant_ListShardKeysRequest, _qdrant_ListShardKeysResponse, _qdrant_ListShardKeysRequest__Output, _qdrant_ListShardKeysResponse__Output>
  Update: MethodDefinition<_qdrant_UpdateCollection, _qdrant_CollectionOperationResponse, _qdrant_UpdateCollection__Output, _qdrant_CollectionOperationResponse__Output>
  UpdateAliases: MethodDefinition<_qdrant_ChangeAliases, _qdrant_CollectionOperationResponse, _qdrant_ChangeAliases__Output, _qdrant_CollectionOperationResponse__Output>
  UpdateCollectionClusterSetup: MethodDefinition<_qdrant_UpdateCollectionClusterSetupRequest, _qdrant_UpdateCollectionClusterSetupResponse, _qdrant_UpdateCollectionClusterSetupRequest__Output, _qdrant_UpdateCollectionClusterSetupResponse__Output>
}
