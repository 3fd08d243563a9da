//go:build unix

package gitcommit

import (
	"time"

	"github.com/go-git/go-git/v5/plumbing/format/index"
	"golang.org/x/sys/unix"
)

// pathIdentity is the device and inode of the file at path.
func pathIdentity(path string) (fileID, bool) {
	var st unix.Stat_t
	if unix.Lstat(path, &st) != nil {
		return fileID{}, false
	}
	return fileID{Dev: uint64(st.Dev), Ino: uint64(st.Ino)}, true
}

// indexStat fills the stat fields git keeps in an index entry, so that git
// sees the file as unchanged without reading it.
func indexStat(path string, e *index.Entry) bool {
	var st unix.Stat_t
	if unix.Lstat(path, &st) != nil {
		return false
	}
	e.Size = uint32(st.Size)
	e.ModifiedAt = time.Unix(int64(st.Mtim.Sec), int64(st.Mtim.Nsec))
	e.CreatedAt = time.Unix(int64(st.Ctim.Sec), int64(st.Ctim.Nsec))
	e.Dev, e.Inode, e.UID, e.GID = uint32(st.Dev), uint32(st.Ino), st.Uid, st.Gid
	return true
}

// pathDevice is the device of the file system holding path.
func pathDevice(path string) (uint64, bool) {
	var st unix.Stat_t
	if unix.Stat(path, &st) != nil {
		return 0, false
	}
	return uint64(st.Dev), true
}
