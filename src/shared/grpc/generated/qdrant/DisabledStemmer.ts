// Original file: proto/collections.proto


export interface DisabledStemmer {
}

export interface DisabledStemmer__Output {
}
