// Package mdstore is the curator store as its commands use it: the typed
// records of the .curator folder (memories, bullets, reflections, merge
// logs), their read and write checks, and its settings (config.yaml). The
// files, the lock, the journal and the transaction that commits every run
// are package store's, which mdstore embeds (Store, Tx) and whose hooks it
// registers: the read-back and secret checks of every save, and the
// bookkeeping of the ids a commit names.
//
// The caches that make listings cheap (the bullet index, the memory
// index, the memory search index, the candidate indexes, the merge logs'
// ids) are package cache's (mdstore/cache), above this one; the live
// memory listing of the MCP server is package live's (mdstore/live).
package mdstore
