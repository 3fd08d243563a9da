// Package memorycmd is the `curator memory` group: add, list, show,
// update, delete and restore single memories, the memory pass (curate),
// drawing rules from lesson cases (promote-rule) and emptying the trash.
// The rules live in curate/memory and the record layout in mdstore; these
// commands read flags, take the store's lock, save the run and print.
package memorycmd
