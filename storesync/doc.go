// Package storesync shares one store between clones through an ordinary git
// remote: Sync fetches the remote's branch, merges it into the local branch
// record by record (package merge) and pushes the result, and Resolve
// finishes a merge or rebase that git stopped on. Both take the store and a
// typed request and return a typed report; every file they write goes
// through the store's transaction.
//
// A merge is planned from the three commits (merge base, ours, theirs) by
// comparing trees: only the files either side changed are read, so the cost
// grows with the change, not with the store. The plan is a changeset against
// ours — store files as merge.TreeOf leaves them, files outside the store
// taken from theirs where only theirs changed them — that the caller saves as
// one commit (a merge commit with theirs as second parent, or a fast-forward).
// Files outside the store changed differently on both sides are not merged
// here: the plan names them and Sync refuses (git pull merges those).
//
// A fetch publishes its pack and writes its refs only when they are whole
// (fetchStorage), and the repository is opened for a sync only after what a
// killed fetch left in objects/pack was removed or repaired (RepairPacks).
package storesync
