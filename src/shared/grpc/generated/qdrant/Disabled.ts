// Original file: proto/collections.proto


export interface Disabled {
}

export interface Disabled__Output {
}
