package store

import (
	"io"
	"os"

	"github.com/curator-dev/curator/internal/durable"
)

// WriteFileAtomic writes data to path so that a crash leaves either the old
// or the new content: temporary file in the same folder, fsync, rename, fsync
// of the folder.
func WriteFileAtomic(path string, data []byte, perm os.FileMode) error {
	return durable.WriteFile(path, data, perm, true)
}

// writeFile writes atomically (rename over the target). With sync false it
// skips the fsyncs: the caller makes the batch durable with one sync later.
func writeFile(path string, data []byte, perm os.FileMode, sync bool) error {
	return durable.WriteFile(path, data, perm, sync)
}

// writeFileWith is writeFile for content that is streamed by fill rather
// than held in memory as a whole.
func writeFileWith(path string, perm os.FileMode, sync bool, fill func(io.Writer) error) error {
	return durable.WriteFileWith(path, perm, sync, fill)
}

// syncAll makes every write to the file system holding dir durable.
func syncAll(dir string) error { return durable.SyncAll(dir) }
