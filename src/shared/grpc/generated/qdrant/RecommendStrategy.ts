// Original file: proto/points.proto

export const RecommendStrategy = {
  AverageVector: 'AverageVector',
  BestScore: 'BestScore',
  SumScores: 'SumScores',
} as const;

export type RecommendStrategy =
  | 'AverageVector'
  | 0
  | 'BestScore'
  | 1
  | 'SumScores'
  | 2

export type RecommendStrategy__Output = typeof RecommendStrategy[keyof typeof RecommendStrategy]
