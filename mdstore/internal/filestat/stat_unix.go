//go:build unix

package filestat

import "golang.org/x/sys/unix"

// At states one file of the open folder dir (its descriptor; the path is
// for systems without one) without following a symlink: f.Name is the
// file's name, the other fields are set from the stat.
func At(dir int, _ string, f *Stat) {
	var st unix.Stat_t
	if unix.Fstatat(dir, f.Name, &st, unix.AT_SYMLINK_NOFOLLOW) == nil && st.Mode&unix.S_IFMT == unix.S_IFREG {
		f.Size, f.Mtime, f.Ctime, f.Regular, f.Linked = st.Size, st.Mtim.Nano(), st.Ctim.Nano(), true, st.Nlink > 1
	}
}

// File states one file (an absolute path) as Scan does; false when it is
// missing or not a regular file.
func File(p string) (Stat, bool) {
	var st unix.Stat_t
	if unix.Lstat(p, &st) != nil || st.Mode&unix.S_IFMT != unix.S_IFREG {
		return Stat{}, false
	}
	return Stat{Size: st.Size, Mtime: st.Mtim.Nano(), Ctime: st.Ctim.Nano(), Regular: true}, true
}

// Dir gives a folder's modification and change times in nanoseconds;
// false when it is missing or not a folder.
func Dir(p string) (mtime, ctime int64, ok bool) {
	var st unix.Stat_t
	if unix.Stat(p, &st) != nil || st.Mode&unix.S_IFMT != unix.S_IFDIR {
		return 0, 0, false
	}
	return st.Mtim.Nano(), st.Ctim.Nano(), true
}
