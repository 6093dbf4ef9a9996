// Original file: proto/collections.proto


export interface ListCollectionsRequest {
}

export interface ListCollectionsRequest__Output {
}
