// Package mdstore is the curator store: the .curator folder of markdown
// records (memories, bullets, reflections), its settings, atomic writes, the
// lock that keeps two runs apart, and the git commit that records every run.
//
// A run changes the store through a Changeset: it is written to a journal,
// applied to the files, then recorded as one commit built from HEAD's tree.
// A run that crashes leaves its journal behind and the next run finishes it.
//
// The commit itself (trees, index, packs, git's lock protocol) is made by
// internal/gitcommit from the changeset; the store passes it the paths of
// its object cache and of its record of held git locks.
//
// Costs follow the run, not the store, as far as git's formats allow: trees
// and the git index are edited as bytes, HEAD's trees come from an object
// cache rather than git's pack indexes, and a windowed listing stats the
// stored files against a memory index instead of reading them.
package mdstore
