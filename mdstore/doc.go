// Package mdstore is the curator store as its commands use it: the typed
// records of the .curator folder (memories, bullets, reflections, merge
// logs), its settings (config.yaml), the caches that make listings cheap,
// and the live memory listing. The files, the lock, the journal and the
// transaction that commits every run are package store's, which mdstore
// embeds (Store, Tx) and whose hooks it registers: the read-back and secret
// checks of every save, and the bookkeeping of the ids a commit names.
//
// The caches are apart from the records, in the files cache_*.go: the
// bullet index (cache_bullets.go), the memory index (cache_memories.go),
// the candidate index of the similarity engine (cache_candidates.go), the
// ids of the merge logs (cache_mergelog_ids.go), and the folder scan they
// stat files with (cache_folder_scan*.go). Each is a git-ignored file
// under .cache/, written when the transaction closes (store.QueueCache);
// a missing or damaged one only makes a listing slower.
//
// Costs follow the run, not the store, as far as git's formats allow: trees
// and the git index are edited as bytes, HEAD's trees come from an object
// cache rather than git's pack indexes, and a windowed listing stats the
// stored files against a memory index instead of reading them.
package mdstore
