// Package history reads what curator did from the git history of a store:
// the runs its commits record (found by their Curator-Run trailer), newest
// first along first parents, from commit messages only; and what changed
// between two states of the store (work tree, any revision, A..B, A...B)
// as records — promoted, trashed, merged, reinforced, archived, edited —
// with the warnings a reviewer must look at.
package history
