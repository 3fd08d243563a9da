//go:build linux

package cache

import "golang.org/x/sys/unix"

// mapPopulate maps a file's pages in the mmap call, instead of one fault
// for every few pages as they are first read.
const mapPopulate = unix.MAP_POPULATE
