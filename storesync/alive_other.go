//go:build !unix

package storesync

// processAlive reports whether a process with this id runs; without a
// cheap check it says yes, and the leftover waits until it is stale.
func processAlive(pid int) bool { return true }
