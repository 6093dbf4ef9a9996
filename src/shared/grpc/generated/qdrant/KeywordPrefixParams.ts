// Original file: proto/collections.proto


export interface KeywordPrefixParams {
}

export interface KeywordPrefixParams__Output {
}
