//go:build unix

package mdstore

import "golang.org/x/sys/unix"

// statAt stats one file of the open folder dir without following a symlink.
func statAt(dir int, _ string, f *fileStat) {
	var st unix.Stat_t
	if unix.Fstatat(dir, f.name, &st, unix.AT_SYMLINK_NOFOLLOW) == nil && st.Mode&unix.S_IFMT == unix.S_IFREG {
		f.size, f.mtime, f.ctime, f.regular, f.linked = st.Size, st.Mtim.Nano(), st.Ctim.Nano(), true, st.Nlink > 1
	}
}

// statFile stats one file (an absolute path) as a folder scan does.
func statFile(p string) (fileStat, bool) {
	var st unix.Stat_t
	if unix.Lstat(p, &st) != nil || st.Mode&unix.S_IFMT != unix.S_IFREG {
		return fileStat{}, false
	}
	return fileStat{size: st.Size, mtime: st.Mtim.Nano(), ctime: st.Ctim.Nano(), regular: true}, true
}

// statDir gives a folder's modification and change times; false when it
// is missing or not a folder.
func statDir(p string) (folderStat, bool) {
	var st unix.Stat_t
	if unix.Stat(p, &st) != nil || st.Mode&unix.S_IFMT != unix.S_IFDIR {
		return folderStat{}, false
	}
	return folderStat{mtime: st.Mtim.Nano(), ctime: st.Ctim.Nano()}, true
}
