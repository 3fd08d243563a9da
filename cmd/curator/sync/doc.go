// Package synccmd is `curator sync`, which shares the store with other
// clones through a git remote, and `curator resolve`, which finishes a
// `git pull` or `git rebase` that stopped on the store's files: flags and
// printed reports around storesync.Sync and storesync.Resolve.
package synccmd
