package cache

import (
	"os"
	"sync/atomic"
	"unsafe"
)

// mapCaches: the caches a run reads whole are mapped (MapFiles).
var mapCaches atomic.Bool

// MapFiles says, for the whole process, whether the caches a run reads
// whole (the bullet index, the playbook's candidate indexes) are mapped
// instead of read into memory: a run then neither copies them nor touches
// new heap pages for them. A mapping is never released (strings and
// numbers made from it may be kept anywhere) and holds the file it maps
// even once a later run has replaced it, so only a process that reads them
// a few times and ends (a command, not a server or a watcher) should map
// them. Off until set; main sets it from the command.
func MapFiles(on bool) { mapCaches.Store(on) }

// readCache is a cache file's bytes: mapped when MapFiles is on, else
// read. The bytes must not be written.
func readCache(path string) ([]byte, error) {
	if mapCaches.Load() {
		return mapFile(path)
	}
	return os.ReadFile(path)
}

// readCacheString is readCache as a string, without a copy.
func readCacheString(path string) (string, error) {
	if !mapCaches.Load() {
		return readString(path)
	}
	b, err := mapFile(path)
	if err != nil || len(b) == 0 {
		return "", err
	}
	return unsafe.String(&b[0], len(b)), nil
}
