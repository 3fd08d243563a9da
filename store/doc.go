// Package store is the core of a curator store: the .curator folder's
// layout (Open, Find, Init), the lock that keeps two runs apart, the
// journal that finishes a run a crash interrupted, atomic writes, and the
// transaction that records each run as one git commit (Tx, Save,
// SaveStaged, Close; the commit itself is made by internal/gitcommit).
//
// A run changes the store through a Changeset: it is written to a journal,
// applied to the files, then recorded as one commit built from HEAD's tree.
// A run that crashes leaves its journal behind and the next run finishes it.
//
// The store knows no record: the layers above it (mdstore's records, ids
// and caches) register Hooks — the checks that refuse a run before
// anything is written, the bookkeeping of a commit a run made, and the
// cache writes queued until the transaction closes (QueueCache,
// WriteCaches).
package store
