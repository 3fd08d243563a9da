//go:build unix

package mdstore

import "golang.org/x/sys/unix"

// statAt stats one file of the open folder dir without following a symlink.
func statAt(dir int, _ string, f *fileStat) {
	var st unix.Stat_t
	if unix.Fstatat(dir, f.name, &st, unix.AT_SYMLINK_NOFOLLOW) == nil && st.Mode&unix.S_IFMT == unix.S_IFREG {
		f.size, f.mtime, f.regular = st.Size, st.Mtim.Nano(), true
	}
}
