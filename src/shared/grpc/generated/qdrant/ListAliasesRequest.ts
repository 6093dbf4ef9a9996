// Original file: proto/collections.proto


export interface ListAliasesRequest {
}

export interface ListAliasesRequest__Output {
}
