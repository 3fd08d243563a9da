// Package history reads what curator did from the git history of a store:
// the runs its commits record (found by their Curator-Run trailer), newest
// first along first parents. It reads commit messages only, never trees.
package history
