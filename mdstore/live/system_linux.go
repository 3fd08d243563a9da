package live

import (
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// liveOrdered: inotify queues the events of all of a watcher's folders in
// the order the changes happen, which the live listing's barrier needs.
const liveOrdered = true

// hardLinked says whether a file has other names: a change made through
// one of them is notified in that name's folder, not in this one.
func hardLinked(fi os.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && st.Nlink > 1
}

// remoteFS names the file system of dir when it is one whose changes made
// on another machine (or through another kernel) inotify does not report.
func remoteFS(dir string) (string, bool) {
	var st unix.Statfs_t
	if unix.Statfs(dir, &st) != nil {
		return "", false
	}
	switch uint32(st.Type) {
	case unix.NFS_SUPER_MAGIC:
		return "NFS", true
	case unix.SMB_SUPER_MAGIC, unix.SMB2_SUPER_MAGIC, unix.CIFS_SUPER_MAGIC:
		return "SMB", true
	case unix.FUSE_SUPER_MAGIC:
		return "FUSE", true
	case unix.V9FS_MAGIC:
		return "9p", true
	case unix.CEPH_SUPER_MAGIC:
		return "Ceph", true
	case unix.AFS_SUPER_MAGIC, unix.AFS_FS_MAGIC:
		return "AFS", true
	case unix.CODA_SUPER_MAGIC:
		return "Coda", true
	}
	return "", false
}
