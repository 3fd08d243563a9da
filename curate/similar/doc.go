// Package similar tells curate how alike two lessons are: a score in [0,1]
// where 0.6 and up means "merge these" and above the curate threshold means
// "the same lesson". The default lexical engine runs locally with no model
// (word stems, WordNet synonyms, built-in word vectors, word rarity, a
// sentence-level check of meaning and word order that only lowers the
// score, a cap for lessons that differ by a negation or a number); an optional engine asks an OpenAI-compatible
// embeddings server. Index finds the most similar bullets without comparing
// every pair.
package similar
