// Package cache keeps the store's caches: git-ignored files under
// .curator/.cache that let a run skip reading records it need not read.
//
//   - the bullet index (bullets.go, Bullets): every bullet's frontmatter and
//     the words of its content, trusted per folder by the folder's times;
//   - the memory index (memories.go, Memories, ListMemories): each memory
//     file's summary and packed fields by its size and times, so a listing
//     with a filter stats the files it lies outside instead of reading them;
//   - the memory search index (memory_search.go, SearchMemories): the words
//     of each memory a search scores;
//   - the candidate indexes (candidates.go, CandidateIndexes): what the
//     similarity engine built for each playbook category;
//   - the merge logs' ids (mergelog_ids.go, MergeLogIDs).
//
// Each is written when the transaction closes (store.QueueCache); a missing
// or damaged one only makes a run slower, never changes what it decides.
// Costs follow the run, not the store: a windowed listing stats the stored
// files against the memory index instead of reading them, and a process
// that reads a cache whole and ends maps it (MapFiles).
package cache
