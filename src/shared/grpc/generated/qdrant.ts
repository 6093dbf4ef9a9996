import type * as grpc from '@grpc/grpc-js';
import type { EnumTypeDefinition, MessageTypeDefinition } from '@grpc/proto-loader';

import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from './google/protobuf/Timestamp.js';
import type { AbortShardTransfer as _qdrant_AbortShardTransfer, AbortShardTransfer__Output as _qdrant_AbortShardTransfer__Output } from './qdrant/AbortShardTransfer.js';
import type { AcornSearchParams as _qdrant_AcornSearchParams, AcornSearchParams__Output as _qdrant_AcornSearchParams__Output } from './qdrant/AcornSearchParams.js';
import type { AliasDescription as _qdrant_AliasDescription, AliasDescription__Output as _qdrant_AliasDescription__Output } from './qdrant/AliasDescription.js';
import type { AliasOperations as _qdrant_AliasOperations, AliasOperations__Output as _qdrant_AliasOperations__Output } from './qdrant/AliasOperations.js';
import type { BatchResult as _qdrant_BatchResult, BatchResult__Output as _qdrant_BatchResult__Output } from './qdrant/BatchResult.js';
import type { BinaryQuantization as _qdrant_BinaryQuantization, BinaryQuantization__Output as _qdrant_BinaryQuantization__Output } from './qdrant/BinaryQuantization.js';
import type { BinaryQuantizationQueryEncoding as _qdrant_BinaryQuantizationQueryEncoding, BinaryQuantizationQueryEncoding__Output as _qdrant_BinaryQuantizationQueryEncoding__Output } from './qdrant/BinaryQuantizationQueryEncoding.js';
import type { BoolIndexParams as _qdrant_BoolIndexParams, BoolIndexParams__Output as _qdrant_BoolIndexParams__Output } from './qdrant/BoolIndexParams.js';
import type { ChangeAliases as _qdrant_ChangeAliases, ChangeAliases__Output as _qdrant_ChangeAliases__Output } from './qdrant/ChangeAliases.js';
import type { ClearPayloadPoints as _qdrant_ClearPayloadPoints, ClearPayloadPoints__Output as _qdrant_ClearPayloadPoints__Output } from './qdrant/ClearPayloadPoints.js';
import type { CollectionClusterInfoRequest as _qdrant_CollectionClusterInfoRequest, CollectionClusterInfoRequest__Output as _qdrant_CollectionClusterInfoRequest__Output } from './qdrant/CollectionClusterInfoRequest.js';
import type { CollectionClusterInfoResponse as _qdrant_CollectionClusterInfoResponse, CollectionClusterInfoResponse__Output as _qdrant_CollectionClusterInfoResponse__Output } from './qdrant/CollectionClusterInfoResponse.js';
import type { CollectionConfig as _qdrant_CollectionConfig, CollectionConfig__Output as _qdrant_CollectionConfig__Output } from './qdrant/CollectionConfig.js';
import type { CollectionDescription as _qdrant_CollectionDescription, CollectionDescription__Output as _qdrant_CollectionDescription__Output } from './qdrant/CollectionDescription.js';
import type { CollectionExists as _qdrant_CollectionExists, CollectionExists__Output as _qdrant_CollectionExists__Output } from './qdrant/CollectionExists.js';
import type { CollectionExistsRequest as _qdrant_CollectionExistsRequest, CollectionExistsRequest__Output as _qdrant_CollectionExistsRequest__Output } from './qdrant/CollectionExistsRequest.js';
import type { CollectionExistsResponse as _qdrant_CollectionExistsResponse, CollectionExistsResponse__Output as _qdrant_CollectionExistsResponse__Output } from './qdrant/CollectionExistsResponse.js';
import type { CollectionInfo as _qdrant_CollectionInfo, CollectionInfo__Output as _qdrant_CollectionInfo__Output } from './qdrant/CollectionInfo.js';
import type { CollectionOperationResponse as _qdrant_CollectionOperationResponse, CollectionOperationResponse__Output as _qdrant_CollectionOperationResponse__Output } from './qdrant/CollectionOperationResponse.js';
import type { CollectionParams as _qdrant_CollectionParams, CollectionParams__Output as _qdrant_CollectionParams__Output } from './qdrant/CollectionParams.js';
import type { CollectionParamsDiff as _qdrant_CollectionParamsDiff, CollectionParamsDiff__Output as _qdrant_CollectionParamsDiff__Output } from './qdrant/CollectionParamsDiff.js';
import type { CollectionsClient as _qdrant_CollectionsClient, CollectionsDefinition as _qdrant_CollectionsDefinition } from './qdrant/Collections.js';
import type { Condition as _qdrant_Condition, Condition__Output as _qdrant_Condition__Output } from './qdrant/Condition.js';
import type { ContextInput as _qdrant_ContextInput, ContextInput__Output as _qdrant_ContextInput__Output } from './qdrant/ContextInput.js';
import type { ContextInputPair as _qdrant_ContextInputPair, ContextInputPair__Output as _qdrant_ContextInputPair__Output } from './qdrant/ContextInputPair.js';
import type { CountPoints as _qdrant_CountPoints, CountPoints__Output as _qdrant_CountPoints__Output } from './qdrant/CountPoints.js';
import type { CountResponse as _qdrant_CountResponse, CountResponse__Output as _qdrant_CountResponse__Output } from './qdrant/CountResponse.js';
import type { CountResult as _qdrant_CountResult, CountResult__Output as _qdrant_CountResult__Output } from './qdrant/CountResult.js';
import type { CreateAlias as _qdrant_CreateAlias, CreateAlias__Output as _qdrant_CreateAlias__Output } from './qdrant/CreateAlias.js';
import type { CreateCollection as _qdrant_CreateCollection, CreateCollection__Output as _qdrant_CreateCollection__Output } from './qdrant/CreateCollection.js';
import type { CreateFieldIndexCollection as _qdrant_CreateFieldIndexCollection, CreateFieldIndexCollection__Output as _qdrant_CreateFieldIndexCollection__Output } from './qdrant/CreateFieldIndexCollection.js';
import type { CreateShardKeyRequest as _qdrant_CreateShardKeyRequest, CreateShardKeyRequest__Output as _qdrant_CreateShardKeyRequest__Output } from './qdrant/CreateShardKeyRequest.js';
import type { CreateShardKeyResponse as _qdrant_CreateShardKeyResponse, CreateShardKeyResponse__Output as _qdrant_CreateShardKeyResponse__Output } from './qdrant/CreateShardKeyResponse.js';
import type { CreateVectorNameRequest as _qdrant_CreateVectorNameRequest, CreateVectorNameRequest__Output as _qdrant_CreateVectorNameRequest__Output } from './qdrant/CreateVectorNameRequest.js';
import type { DatetimeIndexParams as _qdrant_DatetimeIndexParams, DatetimeIndexParams__Output as _qdrant_DatetimeIndexParams__Output } from './qdrant/DatetimeIndexParams.js';
import type { DatetimeRange as _qdrant_DatetimeRange, DatetimeRange__Output as _qdrant_DatetimeRange__Output } from './qdrant/DatetimeRange.js';
import type { DecayParamsExpression as _qdrant_DecayParamsExpression, DecayParamsExpression__Output as _qdrant_DecayParamsExpression__Output } from './qdrant/DecayParamsExpression.js';
import type { DeleteAlias as _qdrant_DeleteAlias, DeleteAlias__Output as _qdrant_DeleteAlias__Output } from './qdrant/DeleteAlias.js';
import type { DeleteCollection as _qdrant_DeleteCollection, DeleteCollection__Output as _qdrant_DeleteCollection__Output } from './qdrant/DeleteCollection.js';
import type { DeleteFieldIndexCollection as _qdrant_DeleteFieldIndexCollection, DeleteFieldIndexCollection__Output as _qdrant_DeleteFieldIndexCollection__Output } from './qdrant/DeleteFieldIndexCollection.js';
import type { DeletePayloadPoints as _qdrant_DeletePayloadPoints, DeletePayloadPoints__Output as _qdrant_DeletePayloadPoints__Output } from './qdrant/DeletePayloadPoints.js';
import type { DeletePointVectors as _qdrant_DeletePointVectors, DeletePointVectors__Output as _qdrant_DeletePointVectors__Output } from './qdrant/DeletePointVectors.js';
import type { DeletePoints as _qdrant_DeletePoints, DeletePoints__Output as _qdrant_DeletePoints__Output } from './qdrant/DeletePoints.js';
import type { DeleteShardKeyRequest as _qdrant_DeleteShardKeyRequest, DeleteShardKeyRequest__Output as _qdrant_DeleteShardKeyRequest__Output } from './qdrant/DeleteShardKeyRequest.js';
import type { DeleteShardKeyResponse as _qdrant_DeleteShardKeyResponse, DeleteShardKeyResponse__Output as _qdrant_DeleteShardKeyResponse__Output } from './qdrant/DeleteShardKeyResponse.js';
import type { DeleteVectorNameRequest as _qdrant_DeleteVectorNameRequest, DeleteVectorNameRequest__Output as _qdrant_DeleteVectorNameRequest__Output } from './qdrant/DeleteVectorNameRequest.js';
import type { DenseVector as _qdrant_DenseVector, DenseVector__Output as _qdrant_DenseVector__Output } from './qdrant/DenseVector.js';
import type { DenseVectorCreationConfig as _qdrant_DenseVectorCreationConfig, DenseVectorCreationConfig__Output as _qdrant_DenseVectorCreationConfig__Output } from './qdrant/DenseVectorCreationConfig.js';
import type { Disabled as _qdrant_Disabled, Disabled__Output as _qdrant_Disabled__Output } from './qdrant/Disabled.js';
import type { DisabledStemmer as _qdrant_DisabledStemmer, DisabledStemmer__Output as _qdrant_DisabledStemmer__Output } from './qdrant/DisabledStemmer.js';
import type { DiscoverBatchPoints as _qdrant_DiscoverBatchPoints, DiscoverBatchPoints__Output as _qdrant_DiscoverBatchPoints__Output } from './qdrant/DiscoverBatchPoints.js';
import type { DiscoverBatchResponse as _qdrant_DiscoverBatchResponse, DiscoverBatchResponse__Output as _qdrant_DiscoverBatchResponse__Output } from './qdrant/DiscoverBatchResponse.js';
import type { DiscoverInput as _qdrant_DiscoverInput, DiscoverInput__Output as _qdrant_DiscoverInput__Output } from './qdrant/DiscoverInput.js';
import type { DiscoverPoints as _qdrant_DiscoverPoints, DiscoverPoints__Output as _qdrant_DiscoverPoints__Output } from './qdrant/DiscoverPoints.js';
import type { DiscoverResponse as _qdrant_DiscoverResponse, DiscoverResponse__Output as _qdrant_DiscoverResponse__Output } from './qdrant/DiscoverResponse.js';
import type { DivExpression as _qdrant_DivExpression, DivExpression__Output as _qdrant_DivExpression__Output } from './qdrant/DivExpression.js';
import type { Document as _qdrant_Document, Document__Output as _qdrant_Document__Output } from './qdrant/Document.js';
import type { Expression as _qdrant_Expression, Expression__Output as _qdrant_Expression__Output } from './qdrant/Expression.js';
import type { FacetCounts as _qdrant_FacetCounts, FacetCounts__Output as _qdrant_FacetCounts__Output } from './qdrant/FacetCounts.js';
import type { FacetHit as _qdrant_FacetHit, FacetHit__Output as _qdrant_FacetHit__Output } from './qdrant/FacetHit.js';
import type { FacetResponse as _qdrant_FacetResponse, FacetResponse__Output as _qdrant_FacetResponse__Output } from './qdrant/FacetResponse.js';
import type { FacetValue as _qdrant_FacetValue, FacetValue__Output as _qdrant_FacetValue__Output } from './qdrant/FacetValue.js';
import type { FeedbackItem as _qdrant_FeedbackItem, FeedbackItem__Output as _qdrant_FeedbackItem__Output } from './qdrant/FeedbackItem.js';
import type { FeedbackStrategy as _qdrant_FeedbackStrategy, FeedbackStrategy__Output as _qdrant_FeedbackStrategy__Output } from './qdrant/FeedbackStrategy.js';
import type { FieldCondition as _qdrant_FieldCondition, FieldCondition__Output as _qdrant_FieldCondition__Output } from './qdrant/FieldCondition.js';
import type { Filter as _qdrant_Filter, Filter__Output as _qdrant_Filter__Output } from './qdrant/Filter.js';
import type { FloatIndexParams as _qdrant_FloatIndexParams, FloatIndexParams__Output as _qdrant_FloatIndexParams__Output } from './qdrant/FloatIndexParams.js';
import type { Formula as _qdrant_Formula, Formula__Output as _qdrant_Formula__Output } from './qdrant/Formula.js';
import type { GeoBoundingBox as _qdrant_GeoBoundingBox, GeoBoundingBox__Output as _qdrant_GeoBoundingBox__Output } from './qdrant/GeoBoundingBox.js';
import type { GeoDistance as _qdrant_GeoDistance, GeoDistance__Output as _qdrant_GeoDistance__Output } from './qdrant/GeoDistance.js';
import type { GeoIndexParams as _qdrant_GeoIndexParams, GeoIndexParams__Output as _qdrant_GeoIndexParams__Output } from './qdrant/GeoIndexParams.js';
import type { GeoLineString as _qdrant_GeoLineString, GeoLineString__Output as _qdrant_GeoLineString__Output } from './qdrant/GeoLineString.js';
import type { GeoPoint as _qdrant_GeoPoint, GeoPoint__Output as _qdrant_GeoPoint__Output } from './qdrant/GeoPoint.js';
import type { GeoPolygon as _qdrant_GeoPolygon, GeoPolygon__Output as _qdrant_GeoPolygon__Output } from './qdrant/GeoPolygon.js';
import type { GeoRadius as _qdrant_GeoRadius, GeoRadius__Output as _qdrant_GeoRadius__Output } from './qdrant/GeoRadius.js';
import type { GetCollectionInfoRequest as _qdrant_GetCollectionInfoRequest, GetCollectionInfoRequest__Output as _qdrant_GetCollectionInfoRequest__Output } from './qdrant/GetCollectionInfoRequest.js';
import type { GetCollectionInfoResponse as _qdrant_GetCollectionInfoResponse, GetCollectionInfoResponse__Output as _qdrant_GetCollectionInfoResponse__Output } from './qdrant/GetCollectionInfoResponse.js';
import type { GetPoints as _qdrant_GetPoints, GetPoints__Output as _qdrant_GetPoints__Output } from './qdrant/GetPoints.js';
import type { GetResponse as _qdrant_GetResponse, GetResponse__Output as _qdrant_GetResponse__Output } from './qdrant/GetResponse.js';
import type { HasIdCondition as _qdrant_HasIdCondition, HasIdCondition__Output as _qdrant_HasIdCondition__Output } from './qdrant/HasIdCondition.js';
import type { HasVectorCondition as _qdrant_HasVectorCondition, HasVectorCondition__Output as _qdrant_HasVectorCondition__Output } from './qdrant/HasVectorCondition.js';
import type { HealthCheckReply as _qdrant_HealthCheckReply, HealthCheckReply__Output as _qdrant_HealthCheckReply__Output } from './qdrant/HealthCheckReply.js';
import type { HealthCheckRequest as _qdrant_HealthCheckRequest, HealthCheckRequest__Output as _qdrant_HealthCheckRequest__Output } from './qdrant/HealthCheckRequest.js';
import type { HnswConfigDiff as _qdrant_HnswConfigDiff, HnswConfigDiff__Output as _qdrant_HnswConfigDiff__Output } from './qdrant/HnswConfigDiff.js';
import type { Image as _qdrant_Image, Image__Output as _qdrant_Image__Output } from './qdrant/Image.js';
import type { InferenceObject as _qdrant_InferenceObject, InferenceObject__Output as _qdrant_InferenceObject__Output } from './qdrant/InferenceObject.js';
import type { IntegerIndexParams as _qdrant_IntegerIndexParams, IntegerIndexParams__Output as _qdrant_IntegerIndexParams__Output } from './qdrant/IntegerIndexParams.js';
import type { IsEmptyCondition as _qdrant_IsEmptyCondition, IsEmptyCondition__Output as _qdrant_IsEmptyCondition__Output } from './qdrant/IsEmptyCondition.js';
import type { IsNullCondition as _qdrant_IsNullCondition, IsNullCondition__Output as _qdrant_IsNullCondition__Output } from './qdrant/IsNullCondition.js';
import type { KeywordIndexParams as _qdrant_KeywordIndexParams, KeywordIndexParams__Output as _qdrant_KeywordIndexParams__Output } from './qdrant/KeywordIndexParams.js';
import type { KeywordPrefixParams as _qdrant_KeywordPrefixParams, KeywordPrefixParams__Output as _qdrant_KeywordPrefixParams__Output } from './qdrant/KeywordPrefixParams.js';
import type { ListAliasesRequest as _qdrant_ListAliasesRequest, ListAliasesRequest__Output as _qdrant_ListAliasesRequest__Output } from './qdrant/ListAliasesRequest.js';
import type { ListAliasesResponse as _qdrant_ListAliasesResponse, ListAliasesResponse__Output as _qdrant_ListAliasesResponse__Output } from './qdrant/ListAliasesResponse.js';
import type { ListCollectionAliasesRequest as _qdrant_ListCollectionAliasesRequest, ListCollectionAliasesRequest__Output as _qdrant_ListCollectionAliasesRequest__Output } from './qdrant/ListCollectionAliasesRequest.js';
import type { ListCollectionsRequest as _qdrant_ListCollectionsRequest, ListCollectionsRequest__Output as _qdrant_ListCollectionsRequest__Output } from './qdrant/ListCollectionsRequest.js';
import type { ListCollectionsResponse as _qdrant_ListCollectionsResponse, ListCollectionsResponse__Output as _qdrant_ListCollectionsResponse__Output } from './qdrant/ListCollectionsResponse.js';
import type { ListShardKeysRequest as _qdrant_ListShardKeysRequest, ListShardKeysRequest__Output as _qdrant_ListShardKeysRequest__Output } from './qdrant/ListShardKeysRequest.js';
import type { ListShardKeysResponse as _qdrant_ListShardKeysResponse, ListShardKeysResponse__Output as _qdrant_ListShardKeysResponse__Output } from './qdrant/ListShardKeysResponse.js';
import type { ListValue as _qdrant_ListValue, ListValue__Output as _qdrant_ListValue__Output } from './qdrant/ListValue.js';
import type { LocalShardInfo as _qdrant_LocalShardInfo, LocalShardInfo__Output as _qdrant_LocalShardInfo__Output } from './qdrant/LocalShardInfo.js';
import type { LookupLocation as _qdrant_LookupLocation, LookupLocation__Output as _qdrant_LookupLocation__Output } from './qdrant/LookupLocation.js';
import type { Match as _qdrant_Match, Match__Output as _qdrant_Match__Output } from './qdrant/Match.js';
import type { MaxOptimizationThreads as _qdrant_MaxOptimizationThreads, MaxOptimizationThreads__Output as _qdrant_MaxOptimizationThreads__Output } from './qdrant/MaxOptimizationThreads.js';
import type { MinShould as _qdrant_MinShould, MinShould__Output as _qdrant_MinShould__Output } from './qdrant/MinShould.js';
import type { Mmr as _qdrant_Mmr, Mmr__Output as _qdrant_Mmr__Output } from './qdrant/Mmr.js';
import type { MoveShard as _qdrant_MoveShard, MoveShard__Output as _qdrant_MoveShard__Output } from './qdrant/MoveShard.js';
import type { MultExpression as _qdrant_MultExpression, MultExpression__Output as _qdrant_MultExpression__Output } from './qdrant/MultExpression.js';
import type { MultiDenseVector as _qdrant_MultiDenseVector, MultiDenseVector__Output as _qdrant_MultiDenseVector__Output } from './qdrant/MultiDenseVector.js';
import type { MultiVectorConfig as _qdrant_MultiVectorConfig, MultiVectorConfig__Output as _qdrant_MultiVectorConfig__Output } from './qdrant/MultiVectorConfig.js';
import type { NaiveFeedbackStrategy as _qdrant_NaiveFeedbackStrategy, NaiveFeedbackStrategy__Output as _qdrant_NaiveFeedbackStrategy__Output } from './qdrant/NaiveFeedbackStrategy.js';
import type { NamedVectors as _qdrant_NamedVectors, NamedVectors__Output as _qdrant_NamedVectors__Output } from './qdrant/NamedVectors.js';
import type { NamedVectorsOutput as _qdrant_NamedVectorsOutput, NamedVectorsOutput__Output as _qdrant_NamedVectorsOutput__Output } from './qdrant/NamedVectorsOutput.js';
import type { NearestInputWithMmr as _qdrant_NearestInputWithMmr, NearestInputWithMmr__Output as _qdrant_NearestInputWithMmr__Output } from './qdrant/NearestInputWithMmr.js';
import type { NestedCondition as _qdrant_NestedCondition, NestedCondition__Output as _qdrant_NestedCondition__Output } from './qdrant/NestedCondition.js';
import type { OptimizerStatus as _qdrant_OptimizerStatus, OptimizerStatus__Output as _qdrant_OptimizerStatus__Output } from './qdrant/OptimizerStatus.js';
import type { OptimizersConfigDiff as _qdrant_OptimizersConfigDiff, OptimizersConfigDiff__Output as _qdrant_OptimizersConfigDiff__Output } from './qdrant/OptimizersConfigDiff.js';
import type { OrderBy as _qdrant_OrderBy, OrderBy__Output as _qdrant_OrderBy__Output } from './qdrant/OrderBy.js';
import type { OrderValue as _qdrant_OrderValue, OrderValue__Output as _qdrant_OrderValue__Output } from './qdrant/OrderValue.js';
import type { PayloadExcludeSelector as _qdrant_PayloadExcludeSelector, PayloadExcludeSelector__Output as _qdrant_PayloadExcludeSelector__Output } from './qdrant/PayloadExcludeSelector.js';
import type { PayloadIncludeSelector as _qdrant_PayloadIncludeSelector, PayloadIncludeSelector__Output as _qdrant_PayloadIncludeSelector__Output } from './qdrant/PayloadIncludeSelector.js';
import type { PayloadIndexParams as _qdrant_PayloadIndexParams, PayloadIndexParams__Output as _qdrant_PayloadIndexParams__Output } from './qdrant/PayloadIndexParams.js';
import type { PayloadSchemaInfo as _qdrant_PayloadSchemaInfo, PayloadSchemaInfo__Output as _qdrant_PayloadSchemaInfo__Output } from './qdrant/PayloadSchemaInfo.js';
import type { PayloadStorageParams as _qdrant_PayloadStorageParams, PayloadStorageParams__Output as _qdrant_PayloadStorageParams__Output } from './qdrant/PayloadStorageParams.js';
import type { PointId as _qdrant_PointId, PointId__Output as _qdrant_PointId__Output } from './qdrant/PointId.js';
import type { PointStruct as _qdrant_PointStruct, PointStruct__Output as _qdrant_PointStruct__Output } from './qdrant/PointStruct.js';
import type { PointVectors as _qdrant_PointVectors, PointVectors__Output as _qdrant_PointVectors__Output } from './qdrant/PointVectors.js';
import type { PointsClient as _qdrant_PointsClient, PointsDefinition as _qdrant_PointsDefinition } from './qdrant/Points.js';
import type { PointsIdsList as _qdrant_PointsIdsList, PointsIdsList__Output as _qdrant_PointsIdsList__Output } from './qdrant/PointsIdsList.js';
import type { PointsOperationResponse as _qdrant_PointsOperationResponse, PointsOperationResponse__Output as _qdrant_PointsOperationResponse__Output } from './qdrant/PointsOperationResponse.js';
import type { PointsSelector as _qdrant_PointsSelector, PointsSelector__Output as _qdrant_PointsSelector__Output } from './qdrant/PointsSelector.js';
import type { PointsUpdateOperation as _qdrant_PointsUpdateOperation, PointsUpdateOperation__Output as _qdrant_PointsUpdateOperation__Output } from './qdrant/PointsUpdateOperation.js';
import type { PowExpression as _qdrant_PowExpression, PowExpression__Output as _qdrant_PowExpression__Output } from './qdrant/PowExpression.js';
import type { PrefetchQuery as _qdrant_PrefetchQuery, PrefetchQuery__Output as _qdrant_PrefetchQuery__Output } from './qdrant/PrefetchQuery.js';
import type { ProductQuantization as _qdrant_ProductQuantization, ProductQuantization__Output as _qdrant_ProductQuantization__Output } from './qdrant/ProductQuantization.js';
import type { QdrantClient as _qdrant_QdrantClient, QdrantDefinition as _qdrant_QdrantDefinition } from './qdrant/Qdrant.js';
import type { QuantizationConfig as _qdrant_QuantizationConfig, QuantizationConfig__Output as _qdrant_QuantizationConfig__Output } from './qdrant/QuantizationConfig.js';
import type { QuantizationConfigDiff as _qdrant_QuantizationConfigDiff, QuantizationConfigDiff__Output as _qdrant_QuantizationConfigDiff__Output } from './qdrant/QuantizationConfigDiff.js';
import type { QuantizationSearchParams as _qdrant_QuantizationSearchParams, QuantizationSearchParams__Output as _qdrant_QuantizationSearchParams__Output } from './qdrant/QuantizationSearchParams.js';
import type { Query as _qdrant_Query, Query__Output as _qdrant_Query__Output } from './qdrant/Query.js';
import type { QueryBatchPoints as _qdrant_QueryBatchPoints, QueryBatchPoints__Output as _qdrant_QueryBatchPoints__Output } from './qdrant/QueryBatchPoints.js';
import type { QueryBatchResponse as _qdrant_QueryBatchResponse, QueryBatchResponse__Output as _qdrant_QueryBatchResponse__Output } from './qdrant/QueryBatchResponse.js';
import type { QueryGroupsResponse as _qdrant_QueryGroupsResponse, QueryGroupsResponse__Output as _qdrant_QueryGroupsResponse__Output } from './qdrant/QueryGroupsResponse.js';
import type { QueryPointGroups as _qdrant_QueryPointGroups, QueryPointGroups__Output as _qdrant_QueryPointGroups__Output } from './qdrant/QueryPointGroups.js';
import type { QueryPoints as _qdrant_QueryPoints, QueryPoints__Output as _qdrant_QueryPoints__Output } from './qdrant/QueryPoints.js';
import type { QueryResponse as _qdrant_QueryResponse, QueryResponse__Output as _qdrant_QueryResponse__Output } from './qdrant/QueryResponse.js';
import type { Range as _qdrant_Range, Range__Output as _qdrant_Range__Output } from './qdrant/Range.js';
import type { ReadConsistency as _qdrant_ReadConsistency, ReadConsistency__Output as _qdrant_ReadConsistency__Output } from './qdrant/ReadConsistency.js';
import type { RecommendBatchPoints as _qdrant_RecommendBatchPoints, RecommendBatchPoints__Output as _qdrant_RecommendBatchPoints__Output } from './qdrant/RecommendBatchPoints.js';
import type { RecommendBatchResponse as _qdrant_RecommendBatchResponse, RecommendBatchResponse__Output as _qdrant_RecommendBatchResponse__Output } from './qdrant/RecommendBatchResponse.js';
import type { RecommendGroupsResponse as _qdrant_RecommendGroupsResponse, RecommendGroupsResponse__Output as _qdrant_RecommendGroupsResponse__Output } from './qdrant/RecommendGroupsResponse.js';
import type { RecommendInput as _qdrant_RecommendInput, RecommendInput__Output as _qdrant_RecommendInput__Output } from './qdrant/RecommendInput.js';
import type { RecommendPointGroups as _qdrant_RecommendPointGroups, RecommendPointGroups__Output as _qdrant_RecommendPointGroups__Output } from './qdrant/RecommendPointGroups.js';
import type { RecommendPoints as _qdrant_RecommendPoints, RecommendPoints__Output as _qdrant_RecommendPoints__Output } from './qdrant/RecommendPoints.js';
import type { RecommendResponse as _qdrant_RecommendResponse, RecommendResponse__Output as _qdrant_RecommendResponse__Output } from './qdrant/RecommendResponse.js';
import type { RelevanceFeedbackInput as _qdrant_RelevanceFeedbackInput, RelevanceFeedbackInput__Output as _qdrant_RelevanceFeedbackInput__Output } from './qdrant/RelevanceFeedbackInput.js';
import type { RemoteShardInfo as _qdrant_RemoteShardInfo, RemoteShardInfo__Output as _qdrant_RemoteShardInfo__Output } from './qdrant/RemoteShardInfo.js';
import type { RenameAlias as _qdrant_RenameAlias, RenameAlias__Output as _qdrant_RenameAlias__Output } from './qdrant/RenameAlias.js';
import type { RepeatedIntegers as _qdrant_RepeatedIntegers, RepeatedIntegers__Output as _qdrant_RepeatedIntegers__Output } from './qdrant/RepeatedIntegers.js';
import type { RepeatedStrings as _qdrant_RepeatedStrings, RepeatedStrings__Output as _qdrant_RepeatedStrings__Output } from './qdrant/RepeatedStrings.js';
import type { Replica as _qdrant_Replica, Replica__Output as _qdrant_Replica__Output } from './qdrant/Replica.js';
import type { ReplicateShard as _qdrant_ReplicateShard, ReplicateShard__Output as _qdrant_ReplicateShard__Output } from './qdrant/ReplicateShard.js';
import type { RetrievedPoint as _qdrant_RetrievedPoint, RetrievedPoint__Output as _qdrant_RetrievedPoint__Output } from './qdrant/RetrievedPoint.js';
import type { Rrf as _qdrant_Rrf, Rrf__Output as _qdrant_Rrf__Output } from './qdrant/Rrf.js';
import type { ScalarQuantization as _qdrant_ScalarQuantization, ScalarQuantization__Output as _qdrant_ScalarQuantization__Output } from './qdrant/ScalarQuantization.js';
import type { ScoredPoint as _qdrant_ScoredPoint, ScoredPoint__Output as _qdrant_ScoredPoint__Output } from './qdrant/ScoredPoint.js';
import type { ScrollPoints as _qdrant_ScrollPoints, ScrollPoints__Output as _qdrant_ScrollPoints__Output } from './qdrant/ScrollPoints.js';
import type { ScrollResponse as _qdrant_ScrollResponse, ScrollResponse__Output as _qdrant_ScrollResponse__Output } from './qdrant/ScrollResponse.js';
import type { SearchBatchPoints as _qdrant_SearchBatchPoints, SearchBatchPoints__Output as _qdrant_SearchBatchPoints__Output } from './qdrant/SearchBatchPoints.js';
import type { SearchBatchResponse as _qdrant_SearchBatchResponse, SearchBatchResponse__Output as _qdrant_SearchBatchResponse__Output } from './qdrant/SearchBatchResponse.js';
import type { SearchGroupsResponse as _qdrant_SearchGroupsResponse, SearchGroupsResponse__Output as _qdrant_SearchGroupsResponse__Output } from './qdrant/SearchGroupsResponse.js';
import type { SearchMatrixOffsets as _qdrant_SearchMatrixOffsets, SearchMatrixOffsets__Output as _qdrant_SearchMatrixOffsets__Output } from './qdrant/SearchMatrixOffsets.js';
import type { SearchMatrixOffsetsResponse as _qdrant_SearchMatrixOffsetsResponse, SearchMatrixOffsetsResponse__Output as _qdrant_SearchMatrixOffsetsResponse__Output } from './qdrant/SearchMatrixOffsetsResponse.js';
import type { SearchMatrixPair as _qdrant_SearchMatrixPair, SearchMatrixPair__Output as _qdrant_SearchMatrixPair__Output } from './qdrant/SearchMatrixPair.js';
import type { SearchMatrixPairs as _qdrant_SearchMatrixPairs, SearchMatrixPairs__Output as _qdrant_SearchMatrixPairs__Output } from './qdrant/SearchMatrixPairs.js';
import type { SearchMatrixPairsResponse as _qdrant_SearchMatrixPairsResponse, SearchMatrixPairsResponse__Output as _qdrant_SearchMatrixPairsResponse__Output } from './qdrant/SearchMatrixPairsResponse.js';
import type { SearchMatrixPoints as _qdrant_SearchMatrixPoints, SearchMatrixPoints__Output as _qdrant_SearchMatrixPoints__Output } from './qdrant/SearchMatrixPoints.js';
import type { SearchParams as _qdrant_SearchParams, SearchParams__Output as _qdrant_SearchParams__Output } from './qdrant/SearchParams.js';
import type { SearchPointGroups as _qdrant_SearchPointGroups, SearchPointGroups__Output as _qdrant_SearchPointGroups__Output } from './qdrant/SearchPointGroups.js';
import type { SearchPoints as _qdrant_SearchPoints, SearchPoints__Output as _qdrant_SearchPoints__Output } from './qdrant/SearchPoints.js';
import type { SearchResponse as _qdrant_SearchResponse, SearchResponse__Output as _qdrant_SearchResponse__Output } from './qdrant/SearchResponse.js';
import type { SetPayloadPoints as _qdrant_SetPayloadPoints, SetPayloadPoints__Output as _qdrant_SetPayloadPoints__Output } from './qdrant/SetPayloadPoints.js';
import type { ShardKey as _qdrant_ShardKey, ShardKey__Output as _qdrant_ShardKey__Output } from './qdrant/ShardKey.js';
import type { ShardKeySelector as _qdrant_ShardKeySelector, ShardKeySelector__Output as _qdrant_ShardKeySelector__Output } from './qdrant/ShardKeySelector.js';
import type { ShardTransferInfo as _qdrant_ShardTransferInfo, ShardTransferInfo__Output as _qdrant_ShardTransferInfo__Output } from './qdrant/ShardTransferInfo.js';
import type { SliceCondition as _qdrant_SliceCondition, SliceCondition__Output as _qdrant_SliceCondition__Output } from './qdrant/SliceCondition.js';
import type { SnowballParams as _qdrant_SnowballParams, SnowballParams__Output as _qdrant_SnowballParams__Output } from './qdrant/SnowballParams.js';
import type { SparseIndexConfig as _qdrant_SparseIndexConfig, SparseIndexConfig__Output as _qdrant_SparseIndexConfig__Output } from './qdrant/SparseIndexConfig.js';
import type { SparseIndices as _qdrant_SparseIndices, SparseIndices__Output as _qdrant_SparseIndices__Output } from './qdrant/SparseIndices.js';
import type { SparseVector as _qdrant_SparseVector, SparseVector__Output as _qdrant_SparseVector__Output } from './qdrant/SparseVector.js';
import type { SparseVectorConfig as _qdrant_SparseVectorConfig, SparseVectorConfig__Output as _qdrant_SparseVectorConfig__Output } from './qdrant/SparseVectorConfig.js';
import type { SparseVectorCreationConfig as _qdrant_SparseVectorCreationConfig, SparseVectorCreationConfig__Output as _qdrant_SparseVectorCreationConfig__Output } from './qdrant/SparseVectorCreationConfig.js';
import type { SparseVectorParams as _qdrant_SparseVectorParams, SparseVectorParams__Output as _qdrant_SparseVectorParams__Output } from './qdrant/SparseVectorParams.js';
import type { StartFrom as _qdrant_StartFrom, StartFrom__Output as _qdrant_StartFrom__Output } from './qdrant/StartFrom.js';
import type { StemmingAlgorithm as _qdrant_StemmingAlgorithm, StemmingAlgorithm__Output as _qdrant_StemmingAlgorithm__Output } from './qdrant/StemmingAlgorithm.js';
import type { StopwordsSet as _qdrant_StopwordsSet, StopwordsSet__Output as _qdrant_StopwordsSet__Output } from './qdrant/StopwordsSet.js';
import type { StrictModeConfig as _qdrant_StrictModeConfig, StrictModeConfig__Output as _qdrant_StrictModeConfig__Output } from './qdrant/StrictModeConfig.js';
import type { StrictModeMultivector as _qdrant_StrictModeMultivector, StrictModeMultivector__Output as _qdrant_StrictModeMultivector__Output } from './qdrant/StrictModeMultivector.js';
import type { StrictModeMultivectorConfig as _qdrant_StrictModeMultivectorConfig, StrictModeMultivectorConfig__Output as _qdrant_StrictModeMultivectorConfig__Output } from './qdrant/StrictModeMultivectorConfig.js';
import type { StrictModeSparse as _qdrant_StrictModeSparse, StrictModeSparse__Output as _qdrant_StrictModeSparse__Output } from './qdrant/StrictModeSparse.js';
import type { StrictModeSparseConfig as _qdrant_StrictModeSparseConfig, StrictModeSparseConfig__Output as _qdrant_StrictModeSparseConfig__Output } from './qdrant/StrictModeSparseConfig.js';
import type { Struct as _qdrant_Struct, Struct__Output as _qdrant_Struct__Output } from './qdrant/Struct.js';
import type { SumExpression as _qdrant_SumExpression, SumExpression__Output as _qdrant_SumExpression__Output } from './qdrant/SumExpression.js';
import type { TextIndexParams as _qdrant_TextIndexParams, TextIndexParams__Output as _qdrant_TextIndexParams__Output } from './qdrant/TextIndexParams.js';
import type { TurboQuantization as _qdrant_TurboQuantization, TurboQuantization__Output as _qdrant_TurboQuantization__Output } from './qdrant/TurboQuantization.js';
import type { UpdateBatchPoints as _qdrant_UpdateBatchPoints, UpdateBatchPoints__Output as _qdrant_UpdateBatchPoints__Output } from './qdrant/UpdateBatchPoints.js';
import type { UpdateBatchResponse as _qdrant_UpdateBatchResponse, UpdateBatchResponse__Output as _qdrant_UpdateBatchResponse__Output } from './qdrant/UpdateBatchResponse.js';
import type { UpdateCollection as _qdrant_UpdateCollection, UpdateCollection__Output as _qdrant_UpdateCollection__Output } from './qdrant/UpdateCollection.js';
import type { UpdateCollectionClusterSetupRequest as _qdrant_UpdateCollectionClusterSetupRequest, UpdateCollectionClusterSetupRequest__Output as _qdrant_UpdateCollectionClusterSetupRequest__Output } from './qdrant/UpdateCollectionClusterSetupRequest.js';
import type { UpdateCollectionClusterSetupResponse as _qdrant_UpdateCollectionClusterSetupResponse, UpdateCollectionClusterSetupResponse__Output as _qdrant_UpdateCollectionClusterSetupResponse__Output } from './qdrant/UpdateCollectionClusterSetupResponse.js';
import type { UpdatePointVectors as _qdrant_UpdatePointVectors, UpdatePointVectors__Output as _qdrant_UpdatePointVectors__Output } from './qdrant/UpdatePointVectors.js';
import type { UpdateResult as _qdrant_UpdateResult, UpdateResult__Output as _qdrant_UpdateResult__Output } from './qdrant/UpdateResult.js';
import type { UpsertPoints as _qdrant_UpsertPoints, UpsertPoints__Output as _qdrant_UpsertPoints__Output } from './qdrant/UpsertPoints.js';
import type { UuidIndexParams as _qdrant_UuidIndexParams, UuidIndexParams__Output as _qdrant_UuidIndexParams__Output } from './qdrant/UuidIndexParams.js';
import type { Value as _qdrant_Value, Value__Output as _qdrant_Value__Output } from './qdrant/Value.js';
import type { ValuesCount as _qdrant_ValuesCount, ValuesCount__Output as _qdrant_ValuesCount__Output } from './qdrant/ValuesCount.js';
import type { Vector as _qdrant_Vector, Vector__Output as _qdrant_Vector__Output } from './qdrant/Vector.js';
import type { VectorInput as _qdrant_VectorInput, VectorInput__Output as _qdrant_VectorInput__Output } from './qdrant/VectorInput.js';
import type { VectorOutput as _qdrant_VectorOutput, VectorOutput__Output as _qdrant_VectorOutput__Output } from './qdrant/VectorOutput.js';
import type { VectorParams as _qdrant_VectorParams, VectorParams__Output as _qdrant_VectorParams__Output } from './qdrant/VectorParams.js';
import type { VectorParamsDiff as _qdrant_VectorParamsDiff, VectorParamsDiff__Output as _qdrant_VectorParamsDiff__Output } from './qdrant/VectorParamsDiff.js';
import type { VectorParamsDiffMap as _qdrant_VectorParamsDiffMap, VectorParamsDiffMap__Output as _qdrant_VectorParamsDiffMap__Output } from './qdrant/VectorParamsDiffMap.js';
import type { VectorParamsMap as _qdrant_VectorParamsMap, VectorParamsMap__Output as _qdrant_VectorParamsMap__Output } from './qdrant/VectorParamsMap.js';
import type { Vectors as _qdrant_Vectors, Vectors__Output as _qdrant_Vectors__Output } from './qdrant/Vectors.js';
import type { VectorsConfig as _qdrant_VectorsConfig, VectorsConfig__Output as _qdrant_VectorsConfig__Output } from './qdrant/VectorsConfig.js';
import type { VectorsConfigDiff as _qdrant_VectorsConfigDiff, VectorsConfigDiff__Output as _qdrant_VectorsConfigDiff__Output } from './qdrant/VectorsConfigDiff.js';
import type { VectorsOutput as _qdrant_VectorsOutput, VectorsOutput__Output as _qdrant_VectorsOutput__Output } from './qdrant/VectorsOutput.js';
import type { VectorsSelector as _qdrant_VectorsSelector, VectorsSelector__Output as _qdrant_VectorsSelector__Output } from './qdrant/VectorsSelector.js';
import type { WalConfigDiff as _qdrant_WalConfigDiff, WalConfigDiff__Output as _qdrant_WalConfigDiff__Output } from './qdrant/WalConfigDiff.js';
import type { WithPayloadSelector as _qdrant_WithPayloadSelector, WithPayloadSelector__Output as _qdrant_WithPayloadSelector__Output } from './qdrant/WithPayloadSelector.js';
import type { WithVectorsSelector as _qdrant_WithVectorsSelector, WithVectorsSelector__Output as _qdrant_WithVectorsSelector__Output } from './qdrant/WithVectorsSelector.js';
import type { WriteOrdering as _qdrant_WriteOrdering, WriteOrdering__Output as _qdrant_WriteOrdering__Output } from './qdrant/WriteOrdering.js';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  google: {
    protobuf: {
      Timestamp: MessageTypeDefinition<_google_protobuf_Timestamp, _google_protobuf_Timestamp__Output>
    }
  }
  qdrant: {
    AbortShardTransfer: MessageTypeDefinition<_qdrant_AbortShardTransfer, _qdrant_AbortShardTransfer__Output>
    AcornSearchParams: MessageTypeDefinition<_qdrant_AcornSearchParams, _qdrant_AcornSearchParams__Output>
    AliasDescription: MessageTypeDefinition<_qdrant_AliasDescription, _qdrant_AliasDescription__Output>
    AliasOperations: MessageTypeDefinition<_qdrant_AliasOperations, _qdrant_AliasOperations__Output>
    BatchResult: MessageTypeDefinition<_qdrant_BatchResult, _qdrant_BatchResult__Output>
    BinaryQuantization: MessageTypeDefinition<_qdrant_BinaryQuantization, _qdrant_BinaryQuantization__Output>
    BinaryQuantizationEncoding: EnumTypeDefinition
    BinaryQuantizationQueryEncoding: MessageTypeDefinition<_qdrant_BinaryQuantizationQueryEncoding, _qdrant_BinaryQuantizationQueryEncoding__Output>
    BoolIndexParams: MessageTypeDefinition<_qdrant_BoolIndexParams, _qdrant_BoolIndexParams__Output>
    ChangeAliases: MessageTypeDefinition<_qdrant_ChangeAliases, _qdrant_ChangeAliases__Output>
    ClearPayloadPoints: MessageTypeDefinition<_qdrant_ClearPayloadPoints, _qdrant_ClearPayloadPoints__Output>
    CollectionClusterInfoRequest: MessageTypeDefinition<_qdrant_CollectionClusterInfoRequest, _qdrant_CollectionClusterInfoRequest__Output>
    CollectionClusterInfoResponse: MessageTypeDefinition<_qdrant_CollectionClusterInfoResponse, _qdrant_CollectionClusterInfoResponse__Output>
    CollectionConfig: MessageTypeDefinition<_qdrant_CollectionConfig, _qdrant_CollectionConfig__Output>
    CollectionDescription: MessageTypeDefinition<_qdrant_CollectionDescription, _qdrant_CollectionDescription__Output>
    CollectionExists: MessageTypeDefinition<_qdrant_CollectionExists, _qdrant_CollectionExists__Output>
    CollectionExistsRequest: MessageTypeDefinition<_qdrant_CollectionExistsRequest, _qdrant_CollectionExistsRequest__Output>
    CollectionExistsResponse: MessageTypeDefinition<_qdrant_CollectionExistsResponse, _qdrant_CollectionExistsResponse__Output>
    CollectionInfo: MessageTypeDefinition<_qdrant_CollectionInfo, _qdrant_CollectionInfo__Output>
    CollectionOperationResponse: MessageTypeDefinition<_qdrant_CollectionOperationResponse, _qdrant_CollectionOperationResponse__Output>
    CollectionParams: MessageTypeDefinition<_qdrant_CollectionParams, _qdrant_CollectionParams__Output>
    CollectionParamsDiff: MessageTypeDefinition<_qdrant_CollectionParamsDiff, _qdrant_CollectionParamsDiff__Output>
    CollectionStatus: EnumTypeDefinition
    Collections: SubtypeConstructor<typeof grpc.Client, _qdrant_CollectionsClient> & { service: _qdrant_CollectionsDefinition }
    CompressionRatio: EnumTypeDefinition
    Condition: MessageTypeDefinition<_qdrant_Condition, _qdrant_Condition__Output>
    ContextInput: MessageTypeDefinition<_qdrant_ContextInput, _qdrant_ContextInput__Output>
    ContextInputPair: MessageTypeDefinition<_qdrant_ContextInputPair, _qdrant_ContextInputPair__Output>
    CountPoints: MessageTypeDefinition<_qdrant_CountPoints, _qdrant_CountPoints__Output>
    CountResponse: MessageTypeDefinition<_qdrant_CountResponse, _qdrant_CountResponse__Output>
    CountResult: MessageTypeDefinition<_qdrant_CountResult, _qdrant_CountResult__Output>
    CreateAlias: MessageTypeDefinition<_qdrant_CreateAlias, _qdrant_CreateAlias__Output>
    CreateCollection: MessageTypeDefinition<_qdrant_CreateCollection, _qdrant_CreateCollection__Output>
    CreateFieldIndexCollection: MessageTypeDefinition<_qdrant_CreateFieldIndexCollection, _qdrant_CreateFieldIndexCollection__Output>
    CreateShardKeyRequest: MessageTypeDefinition<_qdrant_CreateShardKeyRequest, _qdrant_CreateShardKeyRequest__Output>
    CreateShardKeyResponse: MessageTypeDefinition<_qdrant_CreateShardKeyResponse, _qdrant_CreateShardKeyResponse__Output>
    CreateVectorNameRequest: MessageTypeDefinition<_qdrant_CreateVectorNameRequest, _qdrant_CreateVectorNameRequest__Output>
    Datatype: EnumTypeDefinition
    DatetimeIndexParams: MessageTypeDefinition<_qdrant_DatetimeIndexParams, _qdrant_DatetimeIndexParams__Output>
    DatetimeRange: MessageTypeDefinition<_qdrant_DatetimeRange, _qdrant_DatetimeRange__Output>
    DecayParamsExpression: MessageTypeDefinition<_qdrant_DecayParamsExpression, _qdrant_DecayParamsExpression__Output>
    DeleteAlias: MessageTypeDefinition<_qdrant_DeleteAlias, _qdrant_DeleteAlias__Output>
    DeleteCollection: MessageTypeDefinition<_qdrant_DeleteCollection, _qdrant_DeleteCollection__Output>
    DeleteFieldIndexCollection: MessageTypeDefinition<_qdrant_DeleteFieldIndexCollection, _qdrant_DeleteFieldIndexCollection__Output>
    DeletePayloadPoints: MessageTypeDefinition<_qdrant_DeletePayloadPoints, _qdrant_DeletePayloadPoints__Output>
    DeletePointVectors: MessageTypeDefinition<_qdrant_DeletePointVectors, _qdrant_DeletePointVectors__Output>
    DeletePoints: MessageTypeDefinition<_qdrant_DeletePoints, _qdrant_DeletePoints__Output>
    DeleteShardKeyRequest: MessageTypeDefinition<_qdrant_DeleteShardKeyRequest, _qdrant_DeleteShardKeyRequest__Output>
    DeleteShardKeyResponse: MessageTypeDefinition<_qdrant_DeleteShardKeyResponse, _qdrant_DeleteShardKeyResponse__Output>
    DeleteVectorNameRequest: MessageTypeDefinition<_qdrant_DeleteVectorNameRequest, _qdrant_DeleteVectorNameRequest__Output>
    DenseVector: MessageTypeDefinition<_qdrant_DenseVector, _qdrant_DenseVector__Output>
    DenseVectorCreationConfig: MessageTypeDefinition<_qdrant_DenseVectorCreationConfig, _qdrant_DenseVectorCreationConfig__Output>
    Direction: EnumTypeDefinition
    Disabled: MessageTypeDefinition<_qdrant_Disabled, _qdrant_Disabled__Output>
    DisabledStemmer: MessageTypeDefinition<_qdrant_DisabledStemmer, _qdrant_DisabledStemmer__Output>
    DiscoverBatchPoints: MessageTypeDefinition<_qdrant_DiscoverBatchPoints, _qdrant_DiscoverBatchPoints__Output>
    DiscoverBatchResponse: MessageTypeDefinition<_qdrant_DiscoverBatchResponse, _qdrant_DiscoverBatchResponse__Output>
    DiscoverInput: MessageTypeDefinition<_qdrant_DiscoverInput, _qdrant_DiscoverInput__Output>
    DiscoverPoints: MessageTypeDefinition<_qdrant_DiscoverPoints, _qdrant_DiscoverPoints__Output>
    DiscoverResponse: MessageTypeDefinition<_qdrant_DiscoverResponse, _qdrant_DiscoverResponse__Output>
    Distance: EnumTypeDefinition
    DivExpression: MessageTypeDefinition<_qdrant_DivExpression, _qdrant_DivExpression__Output>
    Document: MessageTypeDefinition<_qdrant_Document, _qdrant_Document__Output>
    Expression: MessageTypeDefinition<_qdrant_Expression, _qdrant_Expression__Output>
    FacetCounts: MessageTypeDefinition<_qdrant_FacetCounts, _qdrant_FacetCounts__Output>
    FacetHit: MessageTypeDefinition<_qdrant_FacetHit, _qdrant_FacetHit__Output>
    FacetResponse: MessageTypeDefinition<_qdrant_FacetResponse, _qdrant_FacetResponse__Output>
    FacetValue: MessageTypeDefinition<_qdrant_FacetValue, _qdrant_FacetValue__Output>
    FeedbackItem: MessageTypeDefinition<_qdrant_FeedbackItem, _qdrant_FeedbackItem__Output>
    FeedbackStrategy: MessageTypeDefinition<_qdrant_FeedbackStrategy, _qdrant_FeedbackStrategy__Output>
    FieldCondition: MessageTypeDefinition<_qdrant_FieldCondition, _qdrant_FieldCondition__Output>
    FieldType: EnumTypeDefinition
    Filter: MessageTypeDefinition<_qdrant_Filter, _qdrant_Filter__Output>
    FloatIndexParams: MessageTypeDefinition<_qdrant_FloatIndexParams, _qdrant_FloatIndexParams__Output>
    Formula: MessageTypeDefinition<_qdrant_Formula, _qdrant_Formula__Output>
    Fusion: EnumTypeDefinition
    GeoBoundingBox: MessageTypeDefinition<_qdrant_GeoBoundingBox, _qdrant_GeoBoundingBox__Output>
    GeoDistance: MessageTypeDefinition<_qdrant_GeoDistance, _qdrant_GeoDistance__Output>
    GeoIndexParams: MessageTypeDefinition<_qdrant_GeoIndexParams, _qdrant_GeoIndexParams__Output>
    GeoLineString: MessageTypeDefinition<_qdrant_GeoLineString, _qdrant_GeoLineString__Output>
    GeoPoint: MessageTypeDefinition<_qdrant_GeoPoint, _qdrant_GeoPoint__Output>
    GeoPolygon: MessageTypeDefinition<_qdrant_GeoPolygon, _qdrant_GeoPolygon__Output>
    GeoRadius: MessageTypeDefinition<_qdrant_GeoRadius, _qdrant_GeoRadius__Output>
    GetCollectionInfoRequest: MessageTypeDefinition<_qdrant_GetCollectionInfoRequest, _qdrant_GetCollectionInfoRequest__Output>
    GetCollectionInfoResponse: MessageTypeDefinition<_qdrant_GetCollectionInfoResponse, _qdrant_GetCollectionInfoResponse__Output>
    GetPoints: MessageTypeDefinition<_qdrant_GetPoints, _qdrant_GetPoints__Output>
    GetResponse: MessageTypeDefinition<_qdrant_GetResponse, _qdrant_GetResponse__Output>
    HasIdCondition: MessageTypeDefinition<_qdrant_HasIdCondition, _qdrant_HasIdCondition__Output>
    HasVectorCondition: MessageTypeDefinition<_qdrant_HasVectorCondition, _qdrant_HasVectorCondition__Output>
    HealthCheckReply: MessageTypeDefinition<_qdrant_HealthCheckReply, _qdrant_HealthCheckReply__Output>
    HealthCheckRequest: MessageTypeDefinition<_qdrant_HealthCheckRequest, _qdrant_HealthCheckRequest__Output>
    HnswConfigDiff: MessageTypeDefinition<_qdrant_HnswConfigDiff, _qdrant_HnswConfigDiff__Output>
    Image: MessageTypeDefinition<_qdrant_Image, _qdrant_Image__Output>
    InferenceObject: MessageTypeDefinition<_qdrant_InferenceObject, _qdrant_InferenceObject__Output>
    IntegerIndexParams: MessageTypeDefinition<_qdrant_IntegerIndexParams, _qdrant_IntegerIndexParams__Output>
    IsEmptyCondition: MessageTypeDefinition<_qdrant_IsEmptyCondition, _qdrant_IsEmptyCondition__Output>
    IsNullCondition: MessageTypeDefinition<_qdrant_IsNullCondition, _qdrant_IsNullCondition__Output>
    KeywordIndexParams: MessageTypeDefinition<_qdrant_KeywordIndexParams, _qdrant_KeywordIndexParams__Output>
    KeywordPrefixParams: MessageTypeDefinition<_qdrant_KeywordPrefixParams, _qdrant_KeywordPrefixParams__Output>
    ListAliasesRequest: MessageTypeDefinition<_qdrant_ListAliasesRequest, _qdrant_ListAliasesRequest__Output>
    ListAliasesResponse: MessageTypeDefinition<_qdrant_ListAliasesResponse, _qdrant_ListAliasesResponse__Output>
    ListCollectionAliasesRequest: MessageTypeDefinition<_qdrant_ListCollectionAliasesRequest, _qdrant_ListCollectionAliasesRequest__Output>
    ListCollectionsRequest: MessageTypeDefinition<_qdrant_ListCollectionsRequest, _qdrant_ListCollectionsRequest__Output>
    ListCollectionsResponse: MessageTypeDefinition<_qdrant_ListCollectionsResponse, _qdrant_ListCollectionsResponse__Output>
    ListShardKeysRequest: MessageTypeDefinition<_qdrant_ListShardKeysRequest, _qdrant_ListShardKeysRequest__Output>
    ListShardKeysResponse: MessageTypeDefinition<_qdrant_ListShardKeysResponse, _qdrant_ListShardKeysResponse__Output>
    ListValue: MessageTypeDefinition<_qdrant_ListValue, _qdrant_ListValue__Output>
    LocalShardInfo: MessageTypeDefinition<_qdrant_LocalShardInfo, _qdrant_LocalShardInfo__Output>
    LookupLocation: MessageTypeDefinition<_qdrant_LookupLocation, _qdrant_LookupLocation__Output>
    Match: MessageTypeDefinition<_qdrant_Match, _qdrant_Match__Output>
    MaxOptimizationThreads: MessageTypeDefinition<_qdrant_MaxOptimizationThreads, _qdrant_MaxOptimizationThreads__Output>
    Memory: EnumTypeDefinition
    MinShould: MessageTypeDefinition<_qdrant_MinShould, _qdrant_MinShould__Output>
    Mmr: MessageTypeDefinition<_qdrant_Mmr, _qdrant_Mmr__Output>
    Modifier: EnumTypeDefinition
    MoveShard: MessageTypeDefinition<_qdrant_MoveShard, _qdrant_MoveShard__Output>
    MultExpression: MessageTypeDefinition<_qdrant_MultExpression, _qdrant_MultExpression__Output>
    MultiDenseVector: MessageTypeDefinition<_qdrant_MultiDenseVector, _qdrant_MultiDenseVector__Output>
    MultiVectorComparator: EnumTypeDefinition
    MultiVectorConfig: MessageTypeDefinition<_qdrant_MultiVectorConfig, _qdrant_MultiVectorConfig__Output>
    NaiveFeedbackStrategy: MessageTypeDefinition<_qdrant_NaiveFeedbackStrategy, _qdrant_NaiveFeedbackStrategy__Output>
    NamedVectors: MessageTypeDefinition<_qdrant_NamedVectors, _qdrant_NamedVectors__Output>
    NamedVectorsOutput: MessageTypeDefinition<_qdrant_NamedVectorsOutput, _qdrant_NamedVectorsOutput__Output>
    NearestInputWithMmr: MessageTypeDefinition<_qdrant_NearestInputWithMmr, _qdrant_NearestInputWithMmr__Output>
    NestedCondition: MessageTypeDefinition<_qdrant_NestedCondition, _qdrant_NestedCondition__Output>
    NullValue: EnumTypeDefinition
    OptimizerStatus: MessageTypeDefinition<_qdrant_OptimizerStatus, _qdrant_OptimizerStatus__Output>
    OptimizersConfigDiff: MessageTypeDefinition<_qdrant_OptimizersConfigDiff, _qdrant_OptimizersConfigDiff__Output>
    OrderBy: MessageTypeDefinition<_qdrant_OrderBy, _qdrant_OrderBy__Output>
    OrderValue: MessageTypeDefinition<_qdrant_OrderValue, _qdrant_OrderValue__Output>
    PayloadExcludeSelector: MessageTypeDefinition<_qdrant_PayloadExcludeSelector, _qdrant_PayloadExcludeSelector__Output>
    PayloadIncludeSelector: MessageTypeDefinition<_qdrant_PayloadIncludeSelector, _qdrant_PayloadIncludeSelector__Output>
    PayloadIndexParams: MessageTypeDefinition<_qdrant_PayloadIndexParams, _qdrant_PayloadIndexParams__Output>
    PayloadSchemaInfo: MessageTypeDefinition<_qdrant_PayloadSchemaInfo, _qdrant_PayloadSchemaInfo__Output>
    PayloadSchemaType: EnumTypeDefinition
    PayloadStorageParams: MessageTypeDefinition<_qdrant_PayloadStorageParams, _qdrant_PayloadStorageParams__Output>
    PointId: MessageTypeDefinition<_qdrant_PointId, _qdrant_PointId__Output>
    PointStruct: MessageTypeDefinition<_qdrant_PointStruct, _qdrant_PointStruct__Output>
    PointVectors: MessageTypeDefinition<_qdrant_PointVectors, _qdrant_PointVectors__Output>
    Points: SubtypeConstructor<typeof grpc.Client, _qdrant_PointsClient> & { service: _qdrant_PointsDefinition }
    PointsIdsList: MessageTypeDefinition<_qdrant_PointsIdsList, _qdrant_PointsIdsList__Output>
    PointsOperationResponse: MessageTypeDefinition<_qdrant_PointsOperationResponse, _qdrant_PointsOperationResponse__Output>
    PointsSelector: MessageTypeDefinition<_qdrant_PointsSelector, _qdrant_PointsSelector__Output>
    PointsUpdateOperation: MessageTypeDefinition<_qdrant_PointsUpdateOperation, _qdrant_PointsUpdateOperation__Output>
    PowExpression: MessageTypeDefinition<_qdrant_PowExpression, _qdrant_PowExpression__Output>
    PrefetchQuery: MessageTypeDefinition<_qdrant_PrefetchQuery, _qdrant_PrefetchQuery__Output>
    ProductQuantization: MessageTypeDefinition<_qdrant_ProductQuantization, _qdrant_ProductQuantization__Output>
    Qdrant: SubtypeConstructor<typeof grpc.Client, _qdrant_QdrantClient> & { service: _qdrant_QdrantDefinition }
    QuantizationConfig: MessageTypeDefinition<_qdrant_QuantizationConfig, _qdrant_QuantizationConfig__Output>
    QuantizationConfigDiff: MessageTypeDefinition<_qdrant_QuantizationConfigDiff, _qdrant_QuantizationConfigDiff__Output>
    QuantizationSearchParams: MessageTypeDefinition<_qdrant_QuantizationSearchParams, _qdrant_QuantizationSearchParams__Output>
    QuantizationType: EnumTypeDefinition
    Query: MessageTypeDefinition<_qdrant_Query, _qdrant_Query__Output>
    QueryBatchPoints: MessageTypeDefinition<_qdrant_QueryBatchPoints, _qdrant_QueryBatchPoints__Output>
    QueryBatchResponse: MessageTypeDefinition<_qdrant_QueryBatchResponse, _qdrant_QueryBatchResponse__Output>
    QueryGroupsResponse: MessageTypeDefinition<_qdrant_QueryGroupsResponse, _qdrant_QueryGroupsResponse__Output>
    QueryPointGroups: MessageTypeDefinition<_qdrant_QueryPointGroups, _qdrant_QueryPointGroups__Output>
    QueryPoints: MessageTypeDefinition<_qdrant_QueryPoints, _qdrant_QueryPoints__Output>
    QueryResponse: MessageTypeDefinition<_qdrant_QueryResponse, _qdrant_QueryResponse__Output>
    Range: MessageTypeDefinition<_qdrant_Range, _qdrant_Range__Output>
    ReadConsistency: MessageTypeDefinition<_qdrant_ReadConsistency, _qdrant_ReadConsistency__Output>
    ReadConsistencyType: EnumTypeDefinition
    RecommendBatchPoints: MessageTypeDefinition<_qdrant_RecommendBatchPoints, _qdrant_RecommendBatchPoints__Output>
    RecommendBatchResponse: MessageTypeDefinition<_qdrant_RecommendBatchResponse, _qdrant_RecommendBatchResponse__Output>
    RecommendGroupsResponse: MessageTypeDefinition<_qdrant_RecommendGroupsResponse, _qdrant_RecommendGroupsResponse__Output>
    RecommendInput: MessageTypeDefinition<_qdrant_RecommendInput, _qdrant_RecommendInput__Output>
    RecommendPointGroups: MessageTypeDefinition<_qdrant_RecommendPointGroups, _qdrant_RecommendPointGroups__Output>
    RecommendPoints: MessageTypeDefinition<_qdrant_RecommendPoints, _qdrant_RecommendPoints__Output>
    RecommendResponse: MessageTypeDefinition<_qdrant_RecommendResponse, _qdrant_RecommendResponse__Output>
    RecommendStrategy: EnumTypeDefinition
    RelevanceFeedbackInput: MessageTypeDefinition<_qdrant_RelevanceFeedbackInput, _qdrant_RelevanceFeedbackInput__Output>
    RemoteShardInfo: MessageTypeDefinition<_qdrant_RemoteShardInfo, _qdrant_RemoteShardInfo__Output>
    RenameAlias: MessageTypeDefinition<_qdrant_RenameAlias, _qdrant_RenameAlias__Output>
    RepeatedIntegers: MessageTypeDefinition<_qdrant_RepeatedIntegers, _qdrant_RepeatedIntegers__Output>
    RepeatedStrings: MessageTypeDefinition<_qdrant_RepeatedStrings, _qdrant_RepeatedStrings__Output>
    Replica: MessageTypeDefinition<_qdrant_Replica, _qdrant_Replica__Output>
    ReplicaState: EnumTypeDefinition
    ReplicateShard: MessageTypeDefinition<_qdrant_ReplicateShard, _qdrant_ReplicateShard__Output>
    RetrievedPoint: MessageTypeDefinition<_qdrant_RetrievedPoint, _qdrant_RetrievedPoint__Output>
    Rrf: MessageTypeDefinition<_qdrant_Rrf, _qdrant_Rrf__Output>
    Sample: EnumTypeDefinition
    ScalarQuantization: MessageTypeDefinition<_qdrant_ScalarQuantization, _qdrant_ScalarQuantization__Output>
    ScoredPoint: MessageTypeDefinition<_qdrant_ScoredPoint, _qdrant_ScoredPoint__Output>
    ScrollPoints: MessageTypeDefinition<_qdrant_ScrollPoints, _qdrant_ScrollPoints__Output>
    ScrollResponse: MessageTypeDefinition<_qdrant_ScrollResponse, _qdrant_ScrollResponse__Output>
    SearchBatchPoints: MessageTypeDefinition<_qdrant_SearchBatchPoints, _qdrant_SearchBatchPoints__Output>
    SearchBatchResponse: MessageTypeDefinition<_qdrant_SearchBatchResponse, _qdrant_SearchBatchResponse__Output>
    SearchGroupsResponse: MessageTypeDefinition<_qdrant_SearchGroupsResponse, _qdrant_SearchGroupsResponse__Output>
    SearchMatrixOffsets: MessageTypeDefinition<_qdrant_SearchMatrixOffsets, _qdrant_SearchMatrixOffsets__Output>
    SearchMatrixOffsetsResponse: MessageTypeDefinition<_qdrant_SearchMatrixOffsetsResponse, _qdrant_SearchMatrixOffsetsResponse__Output>
    SearchMatrixPair: MessageTypeDefinition<_qdrant_SearchMatrixPair, _qdrant_SearchMatrixPair__Output>
    SearchMatrixPairs: MessageTypeDefinition<_qdrant_SearchMatrixPairs, _qdrant_SearchMatrixPairs__Output>
    SearchMatrixPairsResponse: MessageTypeDefinition<_qdrant_SearchMatrixPairsResponse, _qdrant_SearchMatrixPairsResponse__Output>
    SearchMatrixPoints: MessageTypeDefinition<_qdrant_SearchMatrixPoints, _qdrant_SearchMatrixPoints__Output>
    SearchParams: MessageTypeDefinition<_qdrant_SearchParams, _qdrant_SearchParams__Output>
    SearchPointGroups: MessageTypeDefinition<_qdrant_SearchPointGroups, _qdrant_SearchPointGroups__Output>
    SearchPoints: MessageTypeDefinition<_qdrant_SearchPoints, _qdrant_SearchPoints__Output>
    SearchResponse: MessageTypeDefinition<_qdrant_SearchResponse, _qdrant_SearchResponse__Output>
    SetPayloadPoints: MessageTypeDefinition<_qdrant_SetPayloadPoints, _qdrant_SetPayloadPoints__Output>
    ShardKey: MessageTypeDefinition<_qdrant_ShardKey, _qdrant_ShardKey__Output>
    ShardKeySelector: MessageTypeDefinition<_qdrant_ShardKeySelector, _qdrant_ShardKeySelector__Output>
    ShardTransferInfo: MessageTypeDefinition<_qdrant_ShardTransferInfo, _qdrant_ShardTransferInfo__Output>
    ShardTransferMethod: EnumTypeDefinition
    ShardingMethod: EnumTypeDefinition
    SliceCondition: MessageTypeDefinition<_qdrant_SliceCondition, _qdrant_SliceCondition__Output>
    SnowballParams: MessageTypeDefinition<_qdrant_SnowballParams, _qdrant_SnowballParams__Output>
    SparseIndexConfig: MessageTypeDefinition<_qdrant_SparseIndexConfig, _qdrant_SparseIndexConfig__Output>
    SparseIndices: MessageTypeDefinition<_qdrant_SparseIndices, _qdrant_SparseIndices__Output>
    SparseVector: MessageTypeDefinition<_qdrant_SparseVector, _qdrant_SparseVector__Output>
    SparseVectorConfig: MessageTypeDefinition<_qdrant_SparseVectorConfig, _qdrant_SparseVectorConfig__Output>
    SparseVectorCreationConfig: MessageTypeDefinition<_qdrant_SparseVectorCreationConfig, _qdrant_SparseVectorCreationConfig__Output>
    SparseVectorParams: MessageTypeDefinition<_qdrant_SparseVectorParams, _qdrant_SparseVectorParams__Output>
    StartFrom: MessageTypeDefinition<_qdrant_StartFrom, _qdrant_StartFrom__Output>
    StemmingAlgorithm: MessageTypeDefinition<_qdrant_StemmingAlgorithm, _qdrant_StemmingAlgorithm__Output>
    StopwordsSet: MessageTypeDefinition<_qdrant_StopwordsSet, _qdrant_StopwordsSet__Output>
    StrictModeConfig: MessageTypeDefinition<_qdrant_StrictModeConfig, _qdrant_StrictModeConfig__Output>
    StrictModeMultivector: MessageTypeDefinition<_qdrant_StrictModeMultivector, _qdrant_StrictModeMultivector__Output>
    StrictModeMultivectorConfig: MessageTypeDefinition<_qdrant_StrictModeMultivectorConfig, _qdrant_StrictModeMultivectorConfig__Output>
    StrictModeSparse: MessageTypeDefinition<_qdrant_StrictModeSparse, _qdrant_StrictModeSparse__Output>
    StrictModeSparseConfig: MessageTypeDefinition<_qdrant_StrictModeSparseConfig, _qdrant_StrictModeSparseConfig__Output>
    Struct: MessageTypeDefinition<_qdrant_Struct, _qdrant_Struct__Output>
    SumExpression: MessageTypeDefinition<_qdrant_SumExpression, _qdrant_SumExpression__Output>
    TextIndexParams: MessageTypeDefinition<_qdrant_TextIndexParams, _qdrant_TextIndexParams__Output>
    TokenizerType: EnumTypeDefinition
    TurboQuantBitSize: EnumTypeDefinition
    TurboQuantization: MessageTypeDefinition<_qdrant_TurboQuantization, _qdrant_TurboQuantization__Output>
    UpdateBatchPoints: MessageTypeDefinition<_qdrant_UpdateBatchPoints, _qdrant_UpdateBatchPoints__Output>
    UpdateBatchResponse: MessageTypeDefinition<_qdrant_UpdateBatchResponse, _qdrant_UpdateBatchResponse__Output>
    UpdateCollection: MessageTypeDefinition<_qdrant_UpdateCollection, _qdrant_UpdateCollection__Output>
    UpdateCollectionClusterSetupRequest: MessageTypeDefinition<_qdrant_UpdateCollectionClusterSetupRequest, _qdrant_UpdateCollectionClusterSetupRequest__Output>
    UpdateCollectionClusterSetupResponse: MessageTypeDefinition<_qdrant_UpdateCollectionClusterSetupResponse, _qdrant_UpdateCollectionClusterSetupResponse__Output>
    UpdateMode: EnumTypeDefinition
    UpdatePointVectors: MessageTypeDefinition<_qdrant_UpdatePointVectors, _qdrant_UpdatePointVectors__Output>
    UpdateResult: MessageTypeDefinition<_qdrant_UpdateResult, _qdrant_UpdateResult__Output>
    UpdateStatus: EnumTypeDefinition
    UpsertPoints: MessageTypeDefinition<_qdrant_UpsertPoints, _qdrant_UpsertPoints__Output>
    UuidIndexParams: MessageTypeDefinition<_qdrant_UuidIndexParams, _qdrant_UuidIndexParams__Output>
    Value: MessageTypeDefinition<_qdrant_Value, _qdrant_Value__Output>
    ValuesCount: MessageTypeDefinition<_qdrant_ValuesCount, _qdrant_ValuesCount__Output>
    Vector: MessageTypeDefinition<_qdrant_Vector, _qdrant_Vector__Output>
    VectorInput: MessageTypeDefinition<_qdrant_VectorInput, _qdrant_VectorInput__Output>
    VectorOutput: MessageTypeDefinition<_qdrant_VectorOutput, _qdrant_VectorOutput__Output>
    VectorParams: MessageTypeDefinition<_qdrant_VectorParams, _qdrant_VectorParams__Output>
    VectorParamsDiff: MessageTypeDefinition<_qdrant_VectorParamsDiff, _qdrant_VectorParamsDiff__Output>
    VectorParamsDiffMap: MessageTypeDefinition<_qdrant_VectorParamsDiffMap, _qdrant_VectorParamsDiffMap__Output>
    VectorParamsMap: MessageTypeDefinition<_qdrant_VectorParamsMap, _qdrant_VectorParamsMap__Output>
    Vectors: MessageTypeDefinition<_qdrant_Vectors, _qdrant_Vectors__Output>
    VectorsConfig: MessageTypeDefinition<_qdrant_VectorsConfig, _qdrant_VectorsConfig__Output>
    VectorsConfigDiff: MessageTypeDefinition<_qdrant_VectorsConfigDiff, _qdrant_VectorsConfigDiff__Output>
    VectorsOutput: MessageTypeDefinition<_qdrant_VectorsOutput, _qdrant_VectorsOutput__Output>
    VectorsSelector: MessageTypeDefinition<_qdrant_VectorsSelector, _qdrant_VectorsSelector__Output>
    WalConfigDiff: MessageTypeDefinition<_qdrant_WalConfigDiff, _qdrant_WalConfigDiff__Output>
    WithPayloadSelector: MessageTypeDefinition<_qdrant_WithPayloadSelector, _qdrant_WithPayloadSelector__Output>
    WithVectorsSelector: MessageTypeDefinition<_qdrant_WithVectorsSelector, _qdrant_WithVectorsSelector__Output>
    WriteOrdering: MessageTypeDefinition<_qdrant_WriteOrdering, _qdrant_WriteOrdering__Output>
    WriteOrderingType: EnumTypeDefinition
  }
}

