// Package gitcommit turns a set of file changes into one git commit on
// the current branch, beside the user's own git, without go-git's
// worktree (its Add and Status cost time in the size of the repository).
//
// Commit builds the commit from HEAD's tree plus the changes, editing only
// the trees on changed paths as bytes; writes the new objects (loose for a
// small commit, one pack for a large one) before any work-tree file
// changes; updates only the changed paths' index entries, keeping the
// user's staged work; and moves the branch with git's own lock protocol
// (index.lock, HEAD.lock, the branch's lock, reflogs). It works in linked
// worktrees, refuses the settings it cannot honour (a split or sparse
// index, reftable), converts line ends as core.autocrlf asks, and after a
// kill removes the git locks the killed process provably created, never
// another's. An object
// cache file keeps the last commit's trees so the next commit does not
// read git's packs. Repack starts git's own `git gc --auto` when curator's
// objects pass git's thresholds.
//
// It does not know curator's store: its layout, records, journal and
// caches are the caller's, which passes the cache and lock-record files in
// Options. It does not apply the files itself (the caller's apply does),
// merge, check out, or read .gitattributes.
package gitcommit
