// Original file: proto/points_service.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { ClearPayloadPoints as _qdrant_ClearPayloadPoints, ClearPayloadPoints__Output as _qdrant_ClearPayloadPoints__Output } from '../qdrant/ClearPayloadPoints.js';
import type { CountPoints as _qdrant_CountPoints, CountPoints__Output as _qdrant_CountPoints__Output } from '../qdrant/CountPoints.js';
import type { CountResponse as _qdrant_CountResponse, CountResponse__Output as _qdrant_CountResponse__Output } from '../qdrant/CountResponse.js';
import type { CreateFieldIndexCollection as _qdrant_CreateFieldIndexCollection, CreateFieldIndexCollection__Output as _qdrant_CreateFieldIndexCollection__Output } from '../qdrant/CreateFieldIndexCollection.js';
import type { CreateVectorNameRequest as _qdrant_CreateVectorNameRequest, CreateVectorNameRequest__Output as _qdrant_CreateVectorNameRequest__Output } from '../qdrant/CreateVectorNameRequest.js';
import type { DeleteFieldIndexCollection as _qdrant_DeleteFieldIndexCollection, DeleteFieldIndexCollection__Output as _qdrant_DeleteFieldIndexCollection__Output } from '../qdrant/DeleteFieldIndexCollection.js';
import type { DeletePayloadPoints as _qdrant_DeletePayloadPoints, DeletePayloadPoints__Output as _qdrant_DeletePayloadPoints__Output } from '../qdrant/DeletePayloadPoints.js';
import type { DeletePointVectors as _qdrant_DeletePointVectors, DeletePointVectors__Output as _qdrant_DeletePointVectors__Output } from '../qdrant/DeletePointVectors.js';
import type { DeletePoints as _qdrant_DeletePoints, DeletePoints__Output as _qdrant_DeletePoints__Output } from '../qdrant/DeletePoints.js';
import type { DeleteVectorNameRequest as _qdrant_DeleteVectorNameRequest, DeleteVectorNameRequest__Output as _qdrant_DeleteVectorNameRequest__Output } from '../qdrant/DeleteVectorNameRequest.js';
import type { DiscoverBatchPoints as _qdrant_DiscoverBatchPoints, DiscoverBatchPoints__Output as _qdrant_DiscoverBatchPoints__Output } from '../qdrant/DiscoverBatchPoints.js';
import type { DiscoverBatchResponse as _qdrant_DiscoverBatchResponse, DiscoverBatchResponse__Output as _qdrant_DiscoverBatchResponse__Output } from '../qdrant/DiscoverBatchResponse.js';
import type { DiscoverPoints as _qdrant_DiscoverPoints, DiscoverPoints__Output as _qdrant_DiscoverPoints__Output } from '../qdrant/DiscoverPoints.js';
import type { DiscoverResponse as _qdrant_DiscoverResponse, DiscoverResponse__Output as _qdrant_DiscoverResponse__Output } from '../qdrant/DiscoverResponse.js';
import type { FacetCounts as _qdrant_FacetCounts, FacetCounts__Output as _qdrant_FacetCounts__Output } from '../qdrant/FacetCounts.js';
import type { FacetResponse as _qdrant_FacetResponse, FacetResponse__Output as _qdrant_FacetResponse__Output } from '../qdrant/FacetResponse.js';
import type { GetPoints as _qdrant_GetPoints, GetPoints__Output as _qdrant_GetPoints__Output } from '../qdrant/GetPoints.js';
import type { GetResponse as _qdrant_GetResponse, GetResponse__Output as _qdrant_GetResponse__Output } from '../qdrant/GetResponse.js';
import type { PointsOperationResponse as _qdrant_PointsOperationResponse, PointsOperationResponse__Output as _qdrant_PointsOperationResponse__Output } from '../qdrant/PointsOperationResponse.js';
import type { QueryBatchPoints as _qdrant_QueryBatchPoints, QueryBatchPoints__Output as _qdrant_QueryBatchPoints__Output } from '../qdrant/QueryBatchPoints.js';
import type { QueryBatchResponse as _qdrant_QueryBatchResponse, QueryBatchResponse__Output as _qdrant_QueryBatchResponse__Output } from '../qdrant/QueryBatchResponse.js';
import type { QueryGroupsResponse as _qdrant_QueryGroupsResponse, QueryGroupsResponse__Output as _qdrant_QueryGroupsResponse__Output } from '../qdrant/QueryGroupsResponse.js';
import type { QueryPointGroups as _qdrant_QueryPointGroups, QueryPointGroups__Output as _qdrant_QueryPointGroups__Output } from '../qdrant/QueryPointGroups.js';
import type { QueryPoints as _qdrant_QueryPoints, QueryPoints__Output as _qdrant_QueryPoints__Output } from '../qdrant/QueryPoints.js';
import type { QueryResponse as _qdrant_QueryResponse, QueryResponse__Output as _qdrant_QueryResponse__Output } from '../qdrant/QueryResponse.js';
import type { RecommendBatchPoints as _qdrant_RecommendBatchPoints, RecommendBatchPoints__Output as _qdrant_RecommendBatchPoints__Output } from '../qdrant/RecommendBatchPoints.js';
import type { RecommendBatchResponse as _qdrant_RecommendBatchResponse, RecommendBatchResponse__Output as _qdrant_RecommendBatchResponse__Output } from '../qdrant/RecommendBatchResponse.js';
import type { RecommendGroupsResponse as _qdrant_RecommendGroupsResponse, RecommendGroupsResponse__Output as _qdrant_RecommendGroupsResponse__Output } from '../qdrant/RecommendGroupsResponse.js';
import type { RecommendPointGroups as _qdrant_RecommendPointGroups, RecommendPointGroups__Output as _qdrant_RecommendPointGroups__Output } from '../qdrant/RecommendPointGroups.js';
import type { RecommendPoints as _qdrant_RecommendPoints, RecommendPoints__Output as _qdrant_RecommendPoints__Output } from '../qdrant/RecommendPoints.js';
import type { RecommendResponse as _qdrant_RecommendResponse, RecommendResponse__Output as _qdrant_RecommendResponse__Output } from '../qdrant/RecommendResponse.js';
import type { ScrollPoints as _qdrant_ScrollPoints, ScrollPoints__Output as _qdrant_ScrollPoints__Output } from '../qdrant/ScrollPoints.js';
import type { ScrollResponse as _qdrant_ScrollResponse, ScrollResponse__Output as _qdrant_ScrollResponse__Output } from '../qdrant/ScrollResponse.js';
import type { SearchBatchPoints as _qdrant_SearchBatchPoints, SearchBatchPoints__Output as _qdrant_SearchBatchPoints__Output } from '../qdrant/SearchBatchPoints.js';
import type { SearchBatchResponse as _qdrant_SearchBatchResponse, SearchBatchResponse__Output as _qdrant_SearchBatchResponse__Output } from '../qdrant/SearchBatchResponse.js';
import type { SearchGroupsResponse as _qdrant_SearchGroupsResponse, SearchGroupsResponse__Output as _qdrant_SearchGroupsResponse__Output } from '../qdrant/SearchGroupsResponse.js';
import type { SearchMatrixOffsetsResponse as _qdrant_SearchMatrixOffsetsResponse, SearchMatrixOffsetsResponse__Output as _qdrant_SearchMatrixOffsetsResponse__Output } from '../qdrant/SearchMatrixOffsetsResponse.js';
import type { SearchMatrixPairsResponse as _qdrant_SearchMatrixPairsResponse, SearchMatrixPairsResponse__Output as _qdrant_SearchMatrixPairsResponse__Output } from '../qdrant/SearchMatrixPairsResponse.js';
import type { SearchMatrixPoints as _qdrant_SearchMatrixPoints, SearchMatrixPoints__Output as _qdrant_SearchMatrixPoints__Output } from '../qdrant/SearchMatrixPoints.js';
import type { SearchPointGroups as _qdrant_SearchPointGroups, SearchPointGroups__Output as _qdrant_SearchPointGroups__Output } from '../qdrant/SearchPointGroups.js';
import type { SearchPoints as _qdrant_SearchPoints, SearchPoints__Output as _qdrant_SearchPoints__Output } from '../qdrant/SearchPoints.js';
import type { SearchResponse as _qdrant_SearchResponse, SearchResponse__Output as _qdrant_SearchResponse__Output } from '../qdrant/SearchResponse.js';
import type { SetPayloadPoints as _qdrant_SetPayloadPoints, SetPayloadPoints__Output as _qdrant_SetPayloadPoints__Output } from '../qdrant/SetPayloadPoints.js';
import type { UpdateBatchPoints as _qdrant_UpdateBatchPoints, UpdateBatchPoints__Output as _qdrant_UpdateBatchPoints__Output } from '../qdrant/UpdateBatchPoints.js';
import type { UpdateBatchResponse as _qdrant_UpdateBatchResponse, UpdateBatchResponse__Output as _qdrant_UpdateBatchResponse__Output } from '../qdrant/UpdateBatchResponse.js';
import type { UpdatePointVectors as _qdrant_UpdatePointVectors, UpdatePointVectors__Output as _qdrant_UpdatePointVectors__Output } from '../qdrant/UpdatePointVectors.js';
import type { UpsertPoints as _qdrant_UpsertPoints, UpsertPoints__Output as _qdrant_UpsertPoints__Output } from '../qdrant/UpsertPoints.js';

export interface PointsClient extends grpc.Client {
  ClearPayload(argument: _qdrant_ClearPayloadPoints, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_PointsOperationResponse__Output>): grpc.ClientUnaryCall;
  ClearPayload(argument: _qdrant_ClearPayloadPoints, metadata: grpc.Metadata, callback: grpc.requestCallback<_qdrant_PointsOperationResponse__Output>): grpc.ClientUnaryCall;
  ClearPayload(argument: _qdrant_ClearPayloadPoints, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_PointsOperationResponse__Output>): grpc.ClientUnaryCall;
  ClearPayload(argument: _qdrant_ClearPayloadPoints, callback: grpc.requestCallback<_qdrant_PointsOperationResponse__Output>): grpc.ClientUnaryCall;
  clearPayload(argument: _qdrant_ClearPayloadPoints, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_PointsOperationResponse__Output>): grpc.ClientUnaryCall;
  clearPayload(argument: _qdrant_ClearPayloadPoints, metadata: grpc.Metadata, callback: grpc.requestCallback<_qdrant_PointsOperationResponse__Output>): grpc.ClientUnaryCall;
  clearPayload(argument: _qdrant_ClearPayloadPoints, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_PointsOperationResponse__Output>): grpc.ClientUnaryCall;
  clearPayload(argument: _qdrant_ClearPayloadPoints, callback: grpc.requestCallback<_qdrant_PointsOperationResponse__Output>): grpc.ClientUnaryCall;
  
  Count(argument: _qdrant_CountPoints, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_CountResponse__Output>): grpc.ClientUnaryCall;
  Count(argument: _qdrant_CountPoints, metadata: grpc.Metadata, callback: grpc.requestCallback<_qdrant_CountResponse__Output>): grpc.ClientUnaryCall;
  Count(argument: _qdrant_CountPoints, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_CountResponse__Output>): grpc.ClientUnaryCall;
  Count(argument: _qdrant_CountPoints, callback: grpc.requestCallback<_qdrant_CountResponse__Output>): grpc.ClientUnaryCall;
  count(argument: _qdrant_CountPoints, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_CountResponse__Output>): grpc.ClientUnaryCall;
  count(argument: _qdrant_CountPoints, metadata: grpc.Metadata, callback: grpc.requestCallback<_qdrant_CountResponse__Output>): grpc.ClientUnaryCall;
  count(argument: _qdrant_CountPoints, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_CountResponse__Output>): grpc.ClientUnaryCall;
  count(argument: _qdrant_CountPoints, callback: grpc.requestCallback<_qdrant_CountResponse__Output>): grpc.ClientUnaryCall;
  
  CreateFieldIndex(argument: _qdrant_CreateFieldIndexCollection, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_PointsOperationResponse__Output>): grpc.ClientUnaryCall;
  CreateFieldIndex(argument: _qdrant_CreateFieldIndexCollection, metadata: grpc.Metadata, callback: grpc.requestCallback<_qdrant_PointsOperationResponse__Output>): grpc.ClientUnaryCall;
  CreateFieldIndex(argument: _qdrant_CreateFieldIndexCollection, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_PointsOperationResponse__Output>): grpc.ClientUnaryCall;
  CreateFieldIndex(argument: _qdrant_CreateFieldIndexCollection, callback: grpc.requestCallback<_qdrant_PointsOperationResponse__Output>): grpc.ClientUnaryCall;
  createFieldIndex(argument: _qdrant_CreateFieldIndexCollection, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_PointsOperationResponse__Output>): grpc.ClientUnaryCall;
  createFieldIndex(argument: _qdrant_CreateFieldIndexCollection, metadata: grpc.Metadata, callback: grpc.requestCallback<_qdrant_PointsOperationResponse__Output>): grpc.ClientUnaryCall;
  createFieldIndex(argument: _qdrant_CreateFieldIndexCollection, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_PointsOperationResponse__Output>): grpc.ClientUnaryCall;
  createFieldIndex(argument: _qdrant_CreateFieldIndexCollection, callback: grpc.requestCallback<_qdrant_PointsOperationResponse__Output>): grpc.ClientUnaryCall;
  
  CreateVectorName(argument: _qdrant_CreateVectorNameRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_PointsOperationResponse__Output>): grpc.ClientUnaryCall;
  CreateVectorName(argument: _qdrant_CreateVectorNameRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_qdrant_PointsOperationResponse__Output>): grpc.ClientUnaryCall;
  CreateVectorName(argument: _qdrant_CreateVectorNameRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_PointsOperationResponse__Output>): grpc.ClientUnaryCall;
  CreateVectorName(argument: _qdrant_CreateVectorNameRequest, callback: grpc.requestCallback<_qdrant_PointsOperationResponse__Output>): grpc.ClientUnaryCall;
  createVectorName(argument: _qdrant_CreateVectorNameRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_PointsOperationResponse__Output>): grpc.ClientUnaryCall;
  createVectorName(argument: _qdrant_CreateVectorNameRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_qdrant_PointsOperationResponse__Output>): grpc.ClientUnaryCall;
  createVectorName(argument: _qdrant_CreateVectorNameRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_PointsOperationResponse__Output>): grpc.ClientUnaryCall;
  createVectorName(argument: _qdrant_CreateVectorNameRequest, callback: grpc.requestCallback<_qdrant_PointsOperationResponse__Output>): grpc.ClientUnaryCall;
  
  Delete(argument: _qdrant_DeletePoints, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_PointsOperationResponse__Output>): grpc.ClientUnaryCall;
  Delete(argument: _qdrant_DeletePoints, metadata: grpc.Metadata, callback: grpc.requestCallback<_qdrant_PointsOperationResponse__Output>): grpc.ClientUnaryCall;
  Delete(argument: _qdrant_DeletePoints, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_PointsOperationResponse__Output>): grpc.ClientUnaryCall;
  Delete(argument: _qdrant_DeletePoints, callback: grpc.requestCallback<_qdrant_PointsOperationResponse__Output>): grpc.ClientUnaryCall;
  delete(argument: _qdrant_DeletePoints, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_PointsOperationResponse__Output>): grpc.ClientUnaryCall;
  delete(argument: _qdrant_DeletePoints, metadata: grpc.Metadata, callback: grpc.requestCallback<_qdrant_PointsOperationResponse__Output>): grpc.ClientUnaryCall;
  delete(argument: _qdrant_DeletePoints, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_PointsOperationResponse__Output>): grpc.ClientUnaryCall;
  delete(argument: _qdrant_DeletePoints, callback: grpc.requestCallback<_qdrant_PointsOperationResponse__Output>): grpc.ClientUnaryCall;
  
  DeleteFieldIndex(argument: _qdrant_DeleteFieldIndexCollection, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_PointsOperationResponse__Output>): grpc.ClientUnaryCall;
  DeleteFieldIndex(argument: _qdrant_DeleteFieldIndexCollection, metadata: grpc.Metadata, callback: grpc.requestCallback<_qdrant_PointsOperationResponse__Output>): grpc.ClientUnaryCall;
  DeleteFieldIndex(argument: _qdrant_DeleteFieldIndexCollection, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_PointsOperationResponse__Output>): grpc.ClientUnaryCall;
  DeleteFieldIndex(argument: _qdrant_DeleteFieldIndexCollection, callback: grpc.requestCallback<_qdrant_PointsOperationResponse__Output>): grpc.ClientUnaryCall;
  deleteFieldIndex(argument: _qdrant_DeleteFieldIndexCollection, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_PointsOperationResponse__Output>): grpc.ClientUnaryCall;
  deleteFieldIndex(argument: _qdrant_DeleteFieldIndexCollection, metadata: grpc.Metadata, callback: grpc.requestCallback<_qdrant_PointsOperationResponse__Output>): grpc.ClientUnaryCall;
  deleteFieldIndex(argument: _qdrant_DeleteFieldIndexCollection, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_PointsOperationResponse__Output>): grpc.ClientUnaryCall;
  deleteFieldIndex(argument: _qdrant_DeleteFieldIndexCollection, callback: grpc.requestCallback<_qdrant_PointsOperationResponse__Output>): grpc.ClientUnaryCall;
  
  DeletePayload(argument: _qdrant_DeletePayloadPoints, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_PointsOperationResponse__Output>): grpc.ClientUnaryCall;
  DeletePayload(argument: _qdrant_DeletePayloadPoints, metadata: grpc.Metadata, callback: grpc.requestCallback<_qdrant_PointsOperationResponse__Output>): grpc.ClientUnaryCall;
  DeletePayload(argument: _qdrant_DeletePayloadPoints, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_PointsOperationResponse__Output>): grpc.ClientUnaryCall;
  DeletePayload(argument: _qdrant_DeletePayloadPoints, callback: grpc.requestCallback<_qdrant_PointsOperationResponse__Output>): grpc.ClientUnaryCall;
  deletePayload(argument: _qdrant_DeletePayloadPoints, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_PointsOperationResponse__Output>): grpc.ClientUnaryCall;
  deletePayload(argument: _qdrant_DeletePayloadPoints, metadata: grpc.Metadata, callback: grpc.requestCallback<_qdrant_PointsOperationResponse__Output>): grpc.ClientUnaryCall;
  deletePayload(argument: _qdrant_DeletePayloadPoints, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_PointsOperationResponse__Output>): grpc.ClientUnaryCall;
  deletePayload(argument: _qdrant_DeletePayloadPoints, callback: grpc.requestCallback<_qdrant_PointsOperationResponse__Output>): grpc.ClientUnaryCall;
  
  DeleteVectorName(argument: _qdrant_DeleteVectorNameRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_PointsOperationResponse__Output>): grpc.ClientUnaryCall;
  DeleteVectorName(argument: _qdrant_DeleteVectorNameRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_qdrant_PointsOperationResponse__Output>): grpc.ClientUnaryCall;
  DeleteVectorName(argument: _qdrant_DeleteVectorNameRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_PointsOperationResponse__Output>): grpc.ClientUnaryCall;
  DeleteVectorName(argument: _qdrant_DeleteVectorNameRequest, callback: grpc.requestCallback<_qdrant_PointsOperationResponse__Output>): grpc.ClientUnaryCall;
  deleteVectorName(argument: _qdrant_DeleteVectorNameRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_PointsOperationResponse__Output>): grpc.ClientUnaryCall;
  deleteVectorName(argument: _qdrant_DeleteVectorNameRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_qdrant_PointsOperationResponse__Output>): grpc.ClientUnaryCall;
  deleteVectorName(argument: _qdrant_DeleteVectorNameRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_PointsOperationResponse__Output>): grpc.ClientUnaryCall;
  deleteVectorName(argument: _qdrant_DeleteVectorNameRequest, callback: grpc.requestCallback<_qdrant_PointsOperationResponse__Output>): grpc.ClientUnaryCall;
  
  DeleteVectors(argument: _qdrant_DeletePointVectors, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_PointsOperationResponse__Output>): grpc.ClientUnaryCall;
  DeleteVectors(argument: _qdrant_DeletePointVectors, metadata: grpc.Metadata, callback: grpc.requestCallback<_qdrant_PointsOperationResponse__Output>): grpc.ClientUnaryCall;
  DeleteVectors(argument: _qdrant_DeletePointVectors, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_PointsOperationResponse__Output>): grpc.ClientUnaryCall;
  DeleteVectors(argument: _qdrant_DeletePointVectors, callback: grpc.requestCallback<_qdrant_PointsOperationResponse__Output>): grpc.ClientUnaryCall;
  deleteVectors(argument: _qdrant_DeletePointVectors, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_PointsOperationResponse__Output>): grpc.ClientUnaryCall;
  deleteVectors(argument: _qdrant_DeletePointVectors, metadata: grpc.Metadata, callback: grpc.requestCallback<_qdrant_PointsOperationResponse__Output>): grpc.ClientUnaryCall;
  deleteVectors(argument: _qdrant_DeletePointVectors, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_PointsOperationResponse__Output>): grpc.ClientUnaryCall;
  deleteVectors(argument: _qdrant_DeletePointVectors, callback: grpc.requestCallback<_qdrant_PointsOperationResponse__Output>): grpc.ClientUnaryCall;
  
  Discover(argument: _qdrant_DiscoverPoints, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_DiscoverResponse__Output>): grpc.ClientUnaryCall;
  Discover(argument: _qdrant_DiscoverPoints, metadata: grpc.Metadata, callback: grpc.requestCallback<_qdrant_DiscoverResponse__Output>): grpc.ClientUnaryCall;
  Discover(argument: _qdrant_DiscoverPoints, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_DiscoverResponse__Output>): grpc.ClientUnaryCall;
  Discover(argument: _qdrant_DiscoverPoints, callback: grpc.requestCallback<_qdrant_DiscoverResponse__Output>): grpc.ClientUnaryCall;
  discover(argument: _qdrant_DiscoverPoints, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_DiscoverResponse__Output>): grpc.ClientUnaryCall;
  discover(argument: _qdrant_DiscoverPoints, metadata: grpc.Metadata, callback: grpc.requestCallback<_qdrant_DiscoverResponse__Output>): grpc.ClientUnaryCall;
  discover(argument: _qdrant_DiscoverPoints, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_DiscoverResponse__Output>): grpc.ClientUnaryCall;
  discover(argument: _qdrant_DiscoverPoints, callback: grpc.requestCallback<_qdrant_DiscoverResponse__Output>): grpc.ClientUnaryCall;
  
  DiscoverBatch(argument: _qdrant_DiscoverBatchPoints, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_DiscoverBatchResponse__Output>): grpc.ClientUnaryCall;
  DiscoverBatch(argument: _qdrant_DiscoverBatchPoints, metadata: grpc.Metadata, callback: grpc.requestCallback<_qdrant_DiscoverBatchResponse__Output>): grpc.ClientUnaryCall;
  DiscoverBatch(argument: _qdrant_DiscoverBatchPoints, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_DiscoverBatchResponse__Output>): grpc.ClientUnaryCall;
  DiscoverBatch(argument: _qdrant_DiscoverBatchPoints, callback: grpc.requestCallback<_qdrant_DiscoverBatchResponse__Output>): grpc.ClientUnaryCall;
  discoverBatch(argument: _qdrant_DiscoverBatchPoints, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_DiscoverBatchResponse__Output>): grpc.ClientUnaryCall;
  discoverBatch(argument: _qdrant_DiscoverBatchPoints, metadata: grpc.Metadata, callback: grpc.requestCallback<_qdrant_DiscoverBatchResponse__Output>): grpc.ClientUnaryCall;
  discoverBatch(argument: _qdrant_DiscoverBatchPoints, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_DiscoverBatchResponse__Output>): grpc.ClientUnaryCall;
  discoverBatch(argument: _qdrant_DiscoverBatchPoints, callback: grpc.requestCallback<_qdrant_DiscoverBatchResponse__Output>): grpc.ClientUnaryCall;
  
  Facet(argument: _qdrant_FacetCounts, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_FacetResponse__Output>): grpc.ClientUnaryCall;
  Facet(argument: _qdrant_FacetCounts, metadata: grpc.Metadata, callback: grpc.requestCallback<_qdrant_FacetResponse__Output>): grpc.ClientUnaryCall;
  Facet(argument: _qdrant_FacetCounts, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_FacetResponse__Output>): grpc.ClientUnaryCall;
  Facet(argument: _qdrant_FacetCounts, callback: grpc.requestCallback<_qdrant_FacetResponse__Output>): grpc.ClientUnaryCall;
  facet(argument: _qdrant_FacetCounts, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_FacetResponse__Output>): grpc.ClientUnaryCall;
  facet(argument: _qdrant_FacetCounts, metadata: grpc.Metadata, callback: grpc.requestCallback<_qdrant_FacetResponse__Output>): grpc.ClientUnaryCall;
  facet(argument: _qdrant_FacetCounts, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_FacetResponse__Output>): grpc.ClientUnaryCall;
  facet(argument: _qdrant_FacetCounts, callback: grpc.requestCallback<_qdrant_FacetResponse__Output>): grpc.ClientUnaryCall;
  
  Get(argument: _qdrant_GetPoints, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_GetResponse__Output>): grpc.ClientUnaryCall;
  Get(argument: _qdrant_GetPoints, metadata: grpc.Metadata, callback: grpc.requestCallback<_qdrant_GetResponse__Output>): grpc.ClientUnaryCall;
  Get(argument: _qdrant_GetPoints, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_GetResponse__Output>): grpc.ClientUnaryCall;
  Get(argument: _qdrant_GetPoints, callback: grpc.requestCallback<_qdrant_GetResponse__Output>): grpc.ClientUnaryCall;
  get(argument: _qdrant_GetPoints, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_GetResponse__Output>): grpc.ClientUnaryCall;
  get(argument: _qdrant_GetPoints, metadata: grpc.Metadata, callback: grpc.requestCallback<_qdrant_GetResponse__Output>): grpc.ClientUnaryCall;
  get(argument: _qdrant_GetPoints, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_GetResponse__Output>): grpc.ClientUnaryCall;
  get(argument: _qdrant_GetPoints, callback: grpc.requestCallback<_qdrant_GetResponse__Output>): grpc.ClientUnaryCall;
  
  OverwritePayload(argument: _qdrant_SetPayloadPoints, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_PointsOperationResponse__Output>): grpc.ClientUnaryCall;
  OverwritePayload(argument: _qdrant_SetPayloadPoints, metadata: grpc.Metadata, callback: grpc.requestCallback<_qdrant_PointsOperationResponse__Output>): grpc.ClientUnaryCall;
  OverwritePayload(argument: _qdrant_SetPayloadPoints, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_PointsOperationResponse__Output>): grpc.ClientUnaryCall;
  OverwritePayload(argument: _qdrant_SetPayloadPoints, callback: grpc.requestCallback<_qdrant_PointsOperationResponse__Output>): grpc.ClientUnaryCall;
  overwritePayload(argument: _qdrant_SetPayloadPoints, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_PointsOperationResponse__Output>): grpc.ClientUnaryCall;
  overwritePayload(argument: _qdrant_SetPayloadPoints, metadata: grpc.Metadata, callback: grpc.requestCallback<_qdrant_PointsOperationResponse__Output>): grpc.ClientUnaryCall;
  overwritePayload(argument: _qdrant_SetPayloadPoints, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_PointsOperationResponse__Output>): grpc.ClientUnaryCall;
  overwritePayload(argument: _qdrant_SetPayloadPoints, callback: grpc.requestCallback<_qdrant_PointsOperationResponse__Output>): grpc.ClientUnaryCall;
  
  Query(argument: _qdrant_QueryPoints, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_QueryResponse__Output>): grpc.ClientUnaryCall;
  Query(argument: _qdrant_QueryPoints, metadata: grpc.Metadata, callback: grpc.requestCallback<_qdrant_QueryResponse__Output>): grpc.ClientUnaryCall;
  Query(argument: _qdrant_QueryPoints, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_QueryResponse__Output>): grpc.ClientUnaryCall;
  Query(argument: _qdrant_QueryPoints, callback: grpc.requestCallback<_qdrant_QueryResponse__Output>): grpc.ClientUnaryCall;
  query(argument: _qdrant_QueryPoints, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_QueryResponse__Output>): grpc.ClientUnaryCall;
  query(argument: _qdrant_QueryPoints, metadata: grpc.Metadata, callback: grpc.requestCallback<_qdrant_QueryResponse__Output>): grpc.ClientUnaryCall;
  query(argument: _qdrant_QueryPoints, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_QueryResponse__Output>): grpc.ClientUnaryCall;
  query(argument: _qdrant_QueryPoints, callback: grpc.requestCallback<_qdrant_QueryResponse__Output>): grpc.ClientUnaryCall;
  
  QueryBatch(argument: _qdrant_QueryBatchPoints, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_QueryBatchResponse__Output>): grpc.ClientUnaryCall;
  QueryBatch(argument: _qdrant_QueryBatchPoints, metadata: grpc.Metadata, callback: grpc.requestCallback<_qdrant_QueryBatchResponse__Output>): grpc.ClientUnaryCall;
  QueryBatch(argument: _qdrant_QueryBatchPoints, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_QueryBatchResponse__Output>): grpc.ClientUnaryCall;
  QueryBatch(argument: _qdrant_QueryBatchPoints, callback: grpc.requestCallback<_qdrant_QueryBatchResponse__Output>): grpc.ClientUnaryCall;
  queryBatch(argument: _qdrant_QueryBatchPoints, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_QueryBatchResponse__Output>): grpc.ClientUnaryCall;
  queryBatch(argument: _qdrant_QueryBatchPoints, metadata: grpc.Metadata, callback: grpc.requestCallback<_qdrant_QueryBatchResponse__Output>): grpc.ClientUnaryCall;
  queryBatch(argument: _qdrant_QueryBatchPoints, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_QueryBatchResponse__Output>): grpc.ClientUnaryCall;
  queryBatch(argument: _qdrant_QueryBatchPoints, callback: grpc.requestCallback<_qdrant_QueryBatchResponse__Output>): grpc.ClientUnaryCall;
  
  QueryGroups(argument: _qdrant_QueryPointGroups, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_QueryGroupsResponse__Output>): grpc.ClientUnaryCall;
  QueryGroups(argument: _qdrant_QueryPointGroups, metadata: grpc.Metadata, callback: grpc.requestCallback<_qdrant_QueryGroupsResponse__Output>): grpc.ClientUnaryCall;
  QueryGroups(argument: _qdrant_QueryPointGroups, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_QueryGroupsResponse__Output>): grpc.ClientUnaryCall;
  QueryGroups(argument: _qdrant_QueryPointGroups, callback: grpc.requestCallback<_qdrant_QueryGroupsResponse__Output>): grpc.ClientUnaryCall;
  queryGroups(argument: _qdrant_QueryPointGroups, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_QueryGroupsResponse__Output>): grpc.ClientUnaryCall;
  queryGroups(argument: _qdrant_QueryPointGroups, metadata: grpc.Metadata, callback: grpc.requestCallback<_qdrant_QueryGroupsResponse__Output>): grpc.ClientUnaryCall;
  queryGroups(argument: _qdrant_QueryPointGroups, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_QueryGroupsResponse__Output>): grpc.ClientUnaryCall;
  queryGroups(argument: _qdrant_QueryPointGroups, callback: grpc.requestCallback<_qdrant_QueryGroupsResponse__Output>): grpc.ClientUnaryCall;
  
  Recommend(argument: _qdrant_RecommendPoints, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_RecommendResponse__Output>): grpc.ClientUnaryCall;
  Recommend(argument: _qdrant_RecommendPoints, metadata: grpc.Metadata, callback: grpc.requestCallback<_qdrant_RecommendResponse__Output>): grpc.ClientUnaryCall;
  Recommend(argument: _qdrant_RecommendPoints, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_RecommendResponse__Output>): grpc.ClientUnaryCall;
  Recommend(argument: _qdrant_RecommendPoints, callback: grpc.requestCallback<_qdrant_RecommendResponse__Output>): grpc.ClientUnaryCall;
  recommend(argument: _qdrant_RecommendPoints, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_RecommendResponse__Output>): grpc.ClientUnaryCall;
  recommend(argument: _qdrant_RecommendPoints, metadata: grpc.Metadata, callback: grpc.requestCallback<_qdrant_RecommendResponse__Output>): grpc.ClientUnaryCall;
  recommend(argument: _qdrant_RecommendPoints, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_RecommendResponse__Output>): grpc.ClientUnaryCall;
  recommend(argument: _qdrant_RecommendPoints, callback: grpc.requestCallback<_qdrant_RecommendResponse__Output>): grpc.ClientUnaryCall;
  
  RecommendBatch(argument: _qdrant_RecommendBatchPoints, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_RecommendBatchResponse__Output>): grpc.ClientUnaryCall;
  RecommendBatch(argument: _qdrant_RecommendBatchPoints, metadata: grpc.Metadata, callback: grpc.requestCallback<_qdrant_RecommendBatchResponse__Output>): grpc.ClientUnaryCall;
  RecommendBatch(argument: _qdrant_RecommendBatchPoints, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_RecommendBatchResponse__Output>): grpc.ClientUnaryCall;
  RecommendBatch(argument: _qdrant_RecommendBatchPoints, callback: grpc.requestCallback<_qdrant_RecommendBatchResponse__Output>): grpc.ClientUnaryCall;
  recommendBatch(argument: _qdrant_RecommendBatchPoints, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_RecommendBatchResponse__Output>): grpc.ClientUnaryCall;
  recommendBatch(argument: _qdrant_RecommendBatchPoints, metadata: grpc.Metadata, callback: grpc.requestCallback<_qdrant_RecommendBatchResponse__Output>): grpc.ClientUnaryCall;
  recommendBatch(argument: _qdrant_RecommendBatchPoints, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_RecommendBatchResponse__Output>): grpc.ClientUnaryCall;
  recommendBatch(argument: _qdrant_RecommendBatchPoints, callback: grpc.requestCallback<_qdrant_RecommendBatchResponse__Output>): grpc.ClientUnaryCall;
  
  RecommendGroups(argument: _qdrant_RecommendPointGroups, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_RecommendGroupsResponse__Output>): grpc.ClientUnaryCall;
  RecommendGroups(argument: _qdrant_RecommendPointGroups, metadata: grpc.Metadata, callback: grpc.requestCallback<_qdrant_RecommendGroupsResponse__Output>): grpc.ClientUnaryCall;
  RecommendGroups(argument: _qdrant_RecommendPointGroups, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_RecommendGroupsResponse__Output>): grpc.ClientUnaryCall;
  RecommendGroups(argument: _qdrant_RecommendPointGroups, callback: grpc.requestCallback<_qdrant_RecommendGroupsResponse__Output>): grpc.ClientUnaryCall;
  recommendGroups(argument: _qdrant_RecommendPointGroups, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_RecommendGroupsResponse__Output>): grpc.ClientUnaryCall;
  recommendGroups(argument: _qdrant_RecommendPointGroups, metadata: grpc.Metadata, callback: grpc.requestCallback<_qdrant_RecommendGroupsResponse__Output>): grpc.ClientUnaryCall;
  recommendGroups(argument: _qdrant_RecommendPointGroups, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_RecommendGroupsResponse__Output>): grpc.ClientUnaryCall;
  recommendGroups(argument: _qdrant_RecommendPointGroups, callback: grpc.requestCallback<_qdrant_RecommendGroupsResponse__Output>): grpc.ClientUnaryCall;
  
  Scroll(argument: _qdrant_ScrollPoints, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_ScrollResponse__Output>): grpc.ClientUnaryCall;
  Scroll(argument: _qdrant_ScrollPoints, metadata: grpc.Metadata, callback: grpc.requestCallback<_qdrant_ScrollResponse__Output>): grpc.ClientUnaryCall;
  Scroll(argument: _qdrant_ScrollPoints, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_ScrollResponse__Output>): grpc.ClientUnaryCall;
  Scroll(argument: _qdrant_ScrollPoints, callback: grpc.requestCallback<_qdrant_ScrollResponse__Output>): grpc.ClientUnaryCall;
  scroll(argument: _qdrant_ScrollPoints, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_ScrollResponse__Output>): grpc.ClientUnaryCall;
  scroll(argument: _qdrant_ScrollPoints, metadata: grpc.Metadata, callback: grpc.requestCallback<_qdrant_ScrollResponse__Output>): grpc.ClientUnaryCall;
  scroll(argument: _qdrant_ScrollPoints, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_ScrollResponse__Output>): grpc.ClientUnaryCall;
  scroll(argument: _qdrant_ScrollPoints, callback: grpc.requestCallback<_qdrant_ScrollResponse__Output>): grpc.ClientUnaryCall;
  
  Search(argument: _qdrant_SearchPoints, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_SearchResponse__Output>): grpc.ClientUnaryCall;
  Search(argument: _qdrant_SearchPoints, metadata: grpc.Metadata, callback: grpc.requestCallback<_qdrant_SearchResponse__Output>): grpc.ClientUnaryCall;
  Search(argument: _qdrant_SearchPoints, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_SearchResponse__Output>): grpc.ClientUnaryCall;
  Search(argument: _qdrant_SearchPoints, callback: grpc.requestCallback<_qdrant_SearchResponse__Output>): grpc.ClientUnaryCall;
  search(argument: _qdrant_SearchPoints, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_SearchResponse__Output>): grpc.ClientUnaryCall;
  search(argument: _qdrant_SearchPoints, metadata: grpc.Metadata, callback: grpc.requestCallback<_qdrant_SearchResponse__Output>): grpc.ClientUnaryCall;
  search(argument: _qdrant_SearchPoints, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_SearchResponse__Output>): grpc.ClientUnaryCall;
  search(argument: _qdrant_SearchPoints, callback: grpc.requestCallback<_qdrant_SearchResponse__Output>): grpc.ClientUnaryCall;
  
  SearchBatch(argument: _qdrant_SearchBatchPoints, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_SearchBatchResponse__Output>): grpc.ClientUnaryCall;
  SearchBatch(argument: _qdrant_SearchBatchPoints, metadata: grpc.Metadata, callback: grpc.requestCallback<_qdrant_SearchBatchResponse__Output>): grpc.ClientUnaryCall;
  SearchBatch(argument: _qdrant_SearchBatchPoints, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_SearchBatchResponse__Output>): grpc.ClientUnaryCall;
  SearchBatch(argument: _qdrant_SearchBatchPoints, callback: grpc.requestCallback<_qdrant_SearchBatchResponse__Output>): grpc.ClientUnaryCall;
  searchBatch(argument: _qdrant_SearchBatchPoints, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_SearchBatchResponse__Output>): grpc.ClientUnaryCall;
  searchBatch(argument: _qdrant_SearchBatchPoints, metadata: grpc.Metadata, callback: grpc.requestCallback<_qdrant_SearchBatchResponse__Output>): grpc.ClientUnaryCall;
  searchBatch(argument: _qdrant_SearchBatchPoints, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_SearchBatchResponse__Output>): grpc.ClientUnaryCall;
  searchBatch(argument: _qdrant_SearchBatchPoints, callback: grpc.requestCallback<_qdrant_SearchBatchResponse__Output>): grpc.ClientUnaryCall;
  
  SearchGroups(argument: _qdrant_SearchPointGroups, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_SearchGroupsResponse__Output>): grpc.ClientUnaryCall;
  SearchGroups(argument: _qdrant_SearchPointGroups, metadata: grpc.Metadata, callback: grpc.requestCallback<_qdrant_SearchGroupsResponse__Output>): grpc.ClientUnaryCall;
  SearchGroups(argument: _qdrant_SearchPointGroups, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_SearchGroupsResponse__Output>): grpc.ClientUnaryCall;
  SearchGroups(argument: _qdrant_SearchPointGroups, callback: grpc.requestCallback<_qdrant_SearchGroupsResponse__Output>): grpc.ClientUnaryCall;
  searchGroups(argument: _qdrant_SearchPointGroups, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_SearchGroupsResponse__Output>): grpc.ClientUnaryCall;
  searchGroups(argument: _qdrant_SearchPointGroups, metadata: grpc.Metadata, callback: grpc.requestCallback<_qdrant_SearchGroupsResponse__Output>): grpc.ClientUnaryCall;
  searchGroups(argument: _qdrant_SearchPointGroups, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_SearchGroupsResponse__Output>): grpc.ClientUnaryCall;
  searchGroups(argument: _qdrant_SearchPointGroups, callback: grpc.requestCallback<_qdrant_SearchGroupsResponse__Output>): grpc.ClientUnaryCall;
  
  SearchMatrixOffsets(argument: _qdrant_SearchMatrixPoints, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_SearchMatrixOffsetsResponse__Output>): grpc.ClientUnaryCall;
  SearchMatrixOffsets(argument: _qdrant_SearchMatrixPoints, metadata: grpc.Metadata, callback: grpc.requestCallback<_qdrant_SearchMatrixOffsetsResponse__Output>): grpc.ClientUnaryCall;
  SearchMatrixOffsets(argument: _qdrant_SearchMatrixPoints, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_SearchMatrixOffsetsResponse__Output>): grpc.ClientUnaryCall;
  SearchMatrixOffsets(argument: _qdrant_SearchMatrixPoints, callback: grpc.requestCallback<_qdrant_SearchMatrixOffsetsResponse__Output>): grpc.ClientUnaryCall;
  searchMatrixOffsets(argument: _qdrant_SearchMatrixPoints, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_SearchMatrixOffsetsResponse__Output>): grpc.ClientUnaryCall;
  searchMatrixOffsets(argument: _qdrant_SearchMatrixPoints, metadata: grpc.Metadata, callback: grpc.requestCallback<_qdrant_SearchMatrixOffsetsResponse__Output>): grpc.ClientUnaryCall;
  searchMatrixOffsets(argument: _qdrant_SearchMatrixPoints, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_SearchMatrixOffsetsResponse__Output>): grpc.ClientUnaryCall;
  searchMatrixOffsets(argument: _qdrant_SearchMatrixPoints, callback: grpc.requestCallback<_qdrant_SearchMatrixOffsetsResponse__Output>): grpc.ClientUnaryCall;
  
  SearchMatrixPairs(argument: _qdrant_SearchMatrixPoints, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_SearchMatrixPairsResponse__Output>): grpc.ClientUnaryCall;
  SearchMatrixPairs(argument: _qdrant_SearchMatrixPoints, metadata: grpc.Metadata, callback: grpc.requestCallback<_qdrant_SearchMatrixPairsResponse__Output>): grpc.ClientUnaryCall;
  SearchMatrixPairs(argument: _qdrant_SearchMatrixPoints, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_SearchMatrixPairsResponse__Output>): grpc.ClientUnaryCall;
  SearchMatrixPairs(argument: _qdrant_SearchMatrixPoints, callback: grpc.requestCallback<_qdrant_SearchMatrixPairsResponse__Output>): grpc.ClientUnaryCall;
  searchMatrixPairs(argument: _qdrant_SearchMatrixPoints, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_SearchMatrixPairsResponse__Output>): grpc.ClientUnaryCall;
  searchMatrixPairs(argument: _qdrant_SearchMatrixPoints, metadata: grpc.Metadata, callback: grpc.requestCallback<_qdrant_SearchMatrixPairsResponse__Output>): grpc.ClientUnaryCall;
  searchMatrixPairs(argument: _qdrant_SearchMatrixPoints, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_SearchMatrixPairsResponse__Output>): grpc.ClientUnaryCall;
  searchMatrixPairs(argument: _qdrant_SearchMatrixPoints, callback: grpc.requestCallback<_qdrant_SearchMatrixPairsResponse__Output>): grpc.ClientUnaryCall;
  
  SetPayload(argument: _qdrant_SetPayloadPoints, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_PointsOperationResponse__Output>): grpc.ClientUnaryCall;
  SetPayload(argument: _qdrant_SetPayloadPoints, metadata: grpc.Metadata, callback: grpc.requestCallback<_qdrant_PointsOperationResponse__Output>): grpc.ClientUnaryCall;
  SetPayload(argument: _qdrant_SetPayloadPoints, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_PointsOperationResponse__Output>): grpc.ClientUnaryCall;
  SetPayload(argument: _qdrant_SetPayloadPoints, callback: grpc.requestCallback<_qdrant_PointsOperationResponse__Output>): grpc.ClientUnaryCall;
  setPayload(argument: _qdrant_SetPayloadPoints, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_PointsOperationResponse__Output>): grpc.ClientUnaryCall;
  setPayload(argument: _qdrant_SetPayloadPoints, metadata: grpc.Metadata, callback: grpc.requestCallback<_qdrant_PointsOperationResponse__Output>): grpc.ClientUnaryCall;
  setPayload(argument: _qdrant_SetPayloadPoints, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_PointsOperationResponse__Output>): grpc.ClientUnaryCall;
  setPayload(argument: _qdrant_SetPayloadPoints, callback: grpc.requestCallback<_qdrant_PointsOperationResponse__Output>): grpc.ClientUnaryCall;
  
  UpdateBatch(argument: _qdrant_UpdateBatchPoints, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_UpdateBatchResponse__Output>): grpc.ClientUnaryCall;
  UpdateBatch(argument: _qdrant_UpdateBatchPoints, metadata: grpc.Metadata, callback: grpc.requestCallback<_qdrant_UpdateBatchResponse__Output>): grpc.ClientUnaryCall;
  UpdateBatch(argument: _qdrant_UpdateBatchPoints, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_UpdateBatchResponse__Output>): grpc.ClientUnaryCall;
  UpdateBatch(argument: _qdrant_UpdateBatchPoints, callback: grpc.requestCallback<_qdrant_UpdateBatchResponse__Output>): grpc.ClientUnaryCall;
  updateBatch(argument: _qdrant_UpdateBatchPoints, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_UpdateBatchResponse__Output>): grpc.ClientUnaryCall;
  updateBatch(argument: _qdrant_UpdateBatchPoints, metadata: grpc.Metadata, callback: grpc.requestCallback<_qdrant_UpdateBatchResponse__Output>): grpc.ClientUnaryCall;
  updateBatch(argument: _qdrant_UpdateBatchPoints, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_UpdateBatchResponse__Output>): grpc.ClientUnaryCall;
  updateBatch(argument: _qdrant_UpdateBatchPoints, callback: grpc.requestCallback<_qdrant_UpdateBatchResponse__Output>): grpc.ClientUnaryCall;
  
  UpdateVectors(argument: _qdrant_UpdatePointVectors, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_PointsOperationResponse__Output>): grpc.ClientUnaryCall;
  UpdateVectors(argument: _qdrant_UpdatePointVectors, metadata: grpc.Metadata, callback: grpc.requestCallback<_qdrant_PointsOperationResponse__Output>): grpc.ClientUnaryCall;
  UpdateVectors(argument: _qdrant_UpdatePointVectors, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_PointsOperationResponse__Output>): grpc.ClientUnaryCall;
  UpdateVectors(argument: _qdrant_UpdatePointVectors, callback: grpc.requestCallback<_qdrant_PointsOperationResponse__Output>): grpc.ClientUnaryCall;
  updateVectors(argument: _qdrant_UpdatePointVectors, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_PointsOperationResponse__Output>): grpc.ClientUnaryCall;
  updateVectors(argument: _qdrant_UpdatePointVectors, metadata: grpc.Metadata, callback: grpc.requestCallback<_qdrant_PointsOperationResponse__Output>): grpc.ClientUnaryCall;
  updateVectors(argument: _qdrant_UpdatePointVectors, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_PointsOperationResponse__Output>): grpc.ClientUnaryCall;
  updateVectors(argument: _qdrant_UpdatePointVectors, callback: grpc.requestCallback<_qdrant_PointsOperationResponse__Output>): grpc.ClientUnaryCall;
  
  Upsert(argument: _qdrant_UpsertPoints, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_PointsOperationResponse__Output>): grpc.ClientUnaryCall;
  Upsert(argument: _qdrant_UpsertPoints, metadata: grpc.Metadata, callback: grpc.requestCallback<_qdrant_PointsOperationResponse__Output>): grpc.ClientUnaryCall;
  Upsert(argument: _qdrant_UpsertPoints, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_PointsOperationResponse__Output>): grpc.ClientUnaryCall;
  Upsert(argument: _qdrant_UpsertPoints, callback: grpc.requestCallback<_qdrant_PointsOperationResponse__Output>): grpc.ClientUnaryCall;
  upsert(argument: _qdrant_UpsertPoints, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_PointsOperationResponse__Output>): grpc.ClientUnaryCall;
  upsert(argument: _qdrant_UpsertPoints, metadata: grpc.Metadata, callback: grpc.requestCallback<_qdrant_PointsOperationResponse__Output>): grpc.ClientUnaryCall;
  upsert(argument: _qdrant_UpsertPoints, options: grpc.CallOptions, callback: grpc.requestCallback<_qdrant_PointsOperationResponse__Output>): grpc.ClientUnaryCall;
  upsert(argument: _qdrant_UpsertPoints, callback: grpc.requestCallback<_qdrant_PointsOperationResponse__Output>): grpc.ClientUnaryCall;
  
}

export interface PointsHandlers extends grpc.UntypedServiceImplementation {
  ClearPayload: grpc.handleUnaryCall<_qdrant_ClearPayloadPoints__Output, _qdrant_PointsOperationResponse>;
  
  Count: grpc.handleUnaryCall<_qdrant_CountPoints__Output, _qdrant_CountResponse>;
  
  CreateFieldIndex: grpc.handleUnaryCall<_qdrant_CreateFieldIndexCollection__Output, _qdrant_PointsOperationResponse>;
  
  CreateVectorName: grpc.handleUnaryCall<_qdrant_CreateVectorNameRequest__Output, _qdrant_PointsOperationResponse>;
  
  Delete: grpc.handleUnaryCall<_qdrant_DeletePoints__Output, _qdrant_PointsOperationResponse>;
  
  DeleteFieldIndex: grpc.handleUnaryCall<_qdrant_DeleteFieldIndexCollection__Output, _qdrant_PointsOperationResponse>;
  
  DeletePayload: grpc.handleUnaryCall<_qdrant_DeletePayloadPoints__Output, _qdrant_PointsOperationResponse>;
  
  DeleteVectorName: grpc.handleUnaryCall<_qdrant_DeleteVectorNameRequest__Output, _qdrant_PointsOperationResponse>;
  
  DeleteVectors: grpc.handleUnaryCall<_qdrant_DeletePointVectors__Output, _qdrant_PointsOperationResponse>;
  
  Discover: grpc.handleUnaryCall<_qdrant_DiscoverPoints__Output, _qdrant_DiscoverResponse>;
  
  DiscoverBatch: grpc.handleUnaryCall<_qdrant_DiscoverBatchPoints__Output, _qdrant_DiscoverBatchResponse>;
  
  Facet: grpc.handleUnaryCall<_qdrant_FacetCounts__Output, _qdrant_FacetResponse>;
  
  Get: grpc.handleUnaryCall<_qdrant_GetPoints__Output, _qdrant_GetResponse>;
  
  OverwritePayload: grpc.handleUnaryCall<_qdrant_SetPayloadPoints__Output, _qdrant_PointsOperationResponse>;
  
  Query: grpc.handleUnaryCall<_qdrant_QueryPoints__Output, _qdrant_QueryResponse>;
  
  QueryBatch: grpc.handleUnaryCall<_qdrant_QueryBatchPoints__Output, _qdrant_QueryBatchResponse>;
  
  QueryGroups: grpc.handleUnaryCall<_qdrant_QueryPointGroups__Output, _qdrant_QueryGroupsResponse>;
  
  Recommend: grpc.handleUnaryCall<_qdrant_RecommendPoints__Output, _qdrant_RecommendResponse>;
  
  RecommendBatch: grpc.handleUnaryCall<_qdrant_RecommendBatchPoints__Output, _qdrant_RecommendBatchResponse>;
  
  RecommendGroups: grpc.handleUnaryCall<_qdrant_RecommendPointGroups__Output, _qdrant_RecommendGroupsResponse>;
  
  Scroll: grpc.handleUnaryCall<_qdrant_ScrollPoints__Output, _qdrant_ScrollResponse>;
  
  Search: grpc.handleUnaryCall<_qdrant_SearchPoints__Output, _qdrant_SearchResponse>;
  
  SearchBatch: grpc.handleUnaryCall<_qdrant_SearchBatchPoints__Output, _qdrant_SearchBatchResponse>;
  
  SearchGroups: grpc.handleUnaryCall<_qdrant_SearchPointGroups__Output, _qdrant_SearchGroupsResponse>;
  
  SearchMatrixOffsets: grpc.handleUnaryCall<_qdrant_SearchMatrixPoints__Output, _qdrant_SearchMatrixOffsetsResponse>;
  
  SearchMatrixPairs: grpc.handleUnaryCall<_qdrant_SearchMatrixPoints__Output, _qdrant_SearchMatrixPairsResponse>;
  
  SetPayload: grpc.handleUnaryCall<_qdrant_SetPayloadPoints__Output, _qdrant_PointsOperationResponse>;
  
  UpdateBatch: grpc.handleUnaryCall<_qdrant_UpdateBatchPoints__Output, _qdrant_UpdateBatchResponse>;
  
  UpdateVectors: grpc.handleUnaryCall<_qdrant_UpdatePointVectors__Output, _qdrant_PointsOperationResponse>;
  
  Upsert: grpc.handleUnaryCall<_qdrant_UpsertPoints__Output, _qdrant_PointsOperationResponse>;
  
}

export interface PointsDefinition extends grpc.ServiceDefinition {
  ClearPayload: MethodDefinition<_qdrant_ClearPayloadPoints, _qdrant_PointsOperationResponse, _qdrant_ClearPayloadPoints__Output, _qdrant_PointsOperationResponse__Output>
  Count: MethodDefinition<_qdrant_CountPoints, _qdrant_CountResponse, _qdrant_CountPoints__Output, _qdrant_CountResponse__Output>
  CreateFieldIndex: MethodDefinition<_qdrant_CreateFieldIndexCollection, _qdrant_PointsOperationResponse, _qdrant_CreateFieldIndexCollection__Output, _qdrant_PointsOperationResponse__Output>
  CreateVectorName: MethodDefinition<_qdrant_CreateVectorNameRequest, _qdrant_PointsOperationResponse, _qdrant_CreateVectorNameRequest__Output, _qdrant_PointsOperationResponse__Output>
  Delete: MethodDefinition<_qdrant_DeletePoints, _qdrant_PointsOperationResponse, _qdrant_DeletePoints__Output, _qdrant_PointsOperationResponse__Output>
  DeleteFieldIndex: MethodDefinition<_qdrant_DeleteFieldIndexCollection, _qdrant_PointsOperationResponse, _qdrant_DeleteFieldIndexCollection__Output, _qdrant_PointsOperationResponse__Output>
  DeletePayload: MethodDefinition<_qdrant_DeletePayloadPoints, _qdrant_PointsOperationResponse, _qdrant_DeletePayloadPoints__Output, _qdrant_PointsOperationResponse__Output>
  DeleteVectorName: MethodDefinition<_qdrant_DeleteVectorNameRequest, _qdrant_PointsOperationResponse, _qdrant_DeleteVectorNameRequest__Output, _qdrant_PointsOperationResponse__Output>
  DeleteVectors: MethodDefinition<_qdrant_DeletePointVectors, _qdrant_PointsOperationResponse, _qdrant_DeletePointVectors__Output, _qdrant_PointsOperationResponse__Output>
  Discover: MethodDefinition<_qdrant_DiscoverPoints, _qdrant_DiscoverResponse, _qdrant_DiscoverPoints__Output, _qdrant_DiscoverResponse__Output>
  DiscoverBatch: MethodDefinition<_qdrant_DiscoverBatchPoints, _qdrant_DiscoverBatchResponse, _qdrant_DiscoverBatchPoints__Output, _qdrant_DiscoverBatchResponse__Output>
  Facet: MethodDefinition<_qdrant_FacetCounts, _qdrant_FacetResponse, _qdrant_FacetCounts__Output, _qdrant_FacetResponse__Output>
  Get: MethodDefinition<_qdrant_GetPoints, _qdrant_GetResponse, _qdrant_GetPoints__Output, _qdrant_GetResponse__Output>
  OverwritePayload: MethodDefinition<_qdrant_SetPayloadPoints, _qdrant_PointsOperationResponse, _qdrant_SetPayloadPoints__Output, _qdrant_PointsOperationResponse__Output>
  Query: MethodDefinition<_qdrant_QueryPoints, _qdrant_QueryResponse, _qdrant_QueryPoints__Output, _qdrant_QueryResponse__Output>
  QueryBatch: MethodDefinition<_qdrant_QueryBatchPoints, _qdrant_QueryBatchResponse, _qdrant_QueryBatchPoints__Output, _qdrant_QueryBatchResponse__Output>
  QueryGroups: MethodDefinition<_qdrant_QueryPointGroups, _qdrant_QueryGroupsResponse, _qdrant_QueryPointGroups__Output, _qdrant_QueryGroupsResponse__Output>
  Recommend: MethodDefinition<_qdrant_RecommendPoints, _qdrant_RecommendResponse, _qdrant_RecommendPoints__Output, _qdrant_RecommendResponse__Output>
  RecommendBatch: MethodDefinition<_qdrant_RecommendBatchPoints, _qdrant_RecommendBatchResponse, _qdrant_RecommendBatchPoints__Output, _qdrant_RecommendBatchResponse__Output>
  RecommendGroups: MethodDefinition<_qdrant_RecommendPointGroups, _qdrant_RecommendGroupsResponse, _qdrant_RecommendPointGroups__Output, _qdrant_RecommendGroupsResponse__Output>
  Scroll: MethodDefinition<_qdrant_ScrollPoints, _qdrant_ScrollResponse, _qdrant_ScrollPoints__Output, _qdrant_ScrollResponse__Output>
  Search: MethodDefinition<_qdrant_SearchPoints, _qdrant_SearchResponse, _qdrant_SearchPoints__Output, _qdrant_SearchResponse__Output>
  SearchBatch: MethodDefinition<_qdrant_SearchBatchPoints, _qdrant_SearchBatchResponse, _qdrant_SearchBatchPoints__Output, _qdrant_SearchBatchResponse__Output>
  SearchGroups: MethodDefinition<_qdrant_SearchPointGroups, _qdrant_SearchGroupsResponse, _qdrant_SearchPointGroups__Output, _qdrant_SearchGroupsResponse__Output>
  SearchMatrixOffsets: MethodDefinition<_qdrant_SearchMatrixPoints, _qdrant_SearchMatrixOffsetsResponse, _qdrant_SearchMatrixPoints__Output, _qdrant_SearchMatrixOffsetsResponse__Output>
  SearchMatrixPairs: MethodDefinition<_qdrant_SearchMatrixPoints, _qdrant_SearchMatrixPairsResponse, _qdrant_SearchMatrixPoints__Output, _qdrant_SearchMatrixPairsResponse__Output>
  SetPayload: MethodDefinition<_qdrant_SetPayloadPoints, _qdrant_PointsOperationResponse, _qdrant_SetPayloadPoints__Output, _qdrant_PointsOperationResponse__Output>
  UpdateBatch: MethodDefinition<_qdrant_UpdateBatchPoints, _qdrant_UpdateBatchResponse, _qdrant_UpdateBatchPoints__Output, _qdrant_UpdateBatchResponse__Output>
  UpdateVectors: MethodDefinition<_qdrant_UpdatePointVectors, _qdrant_PointsOperationResponse, _qdrant_UpdatePointVectors__Output, _qdrant_PointsOperationResponse__Output>
  Upsert: MethodDefinition<_qdrant_UpsertPoints, _qdrant_PointsOperationResponse, _qdrant_UpsertPoints__Output, _qdrant_PointsOperationResponse__Output>
}
