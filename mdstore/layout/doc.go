// Package layout is the one table of the store's folders: which
// store-relative path holds which kind of record (a memory, a bullet, a
// reflection, a merge log, a pipeline's state or brief), in which status,
// and where exactly its records sit. Every part of curator that asks what
// a path holds (the records, their caches, the checks of a save, history,
// the merge) asks Of.
package layout
