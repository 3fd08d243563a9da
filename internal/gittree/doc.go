// Package gittree compares git trees without reading what did not change:
// two trees are walked together in git's order and a folder whose tree hash
// is the same on both sides is skipped unread, so the cost grows with the
// change, not with the repository.
package gittree
