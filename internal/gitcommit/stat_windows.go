package gitcommit

import (
	"os"

	"github.com/go-git/go-git/v5/plumbing/format/index"
	"golang.org/x/sys/windows"
)

// pathIdentity is the identity of the file at path, not following a link.
func pathIdentity(path string) (fileID, bool) {
	p, err := windows.UTF16PtrFromString(path)
	if err != nil {
		return fileID{}, false
	}
	h, err := windows.CreateFile(p, 0, windows.FILE_SHARE_READ|windows.FILE_SHARE_WRITE|windows.FILE_SHARE_DELETE, nil,
		windows.OPEN_EXISTING, windows.FILE_FLAG_BACKUP_SEMANTICS|windows.FILE_FLAG_OPEN_REPARSE_POINT, 0)
	if err != nil {
		return fileID{}, false
	}
	defer windows.CloseHandle(h)
	return handleIdentity(h)
}

func handleIdentity(h windows.Handle) (fileID, bool) {
	var fi windows.ByHandleFileInformation
	if windows.GetFileInformationByHandle(h, &fi) != nil {
		return fileID{}, false
	}
	return fileID{Dev: uint64(fi.VolumeSerialNumber), Ino: uint64(fi.FileIndexHigh)<<32 | uint64(fi.FileIndexLow)}, true
}

// indexStat fills the stat fields git for Windows compares (size and
// modification time); it reads the file once for the rest.
func indexStat(path string, e *index.Entry) bool {
	fi, err := os.Lstat(path)
	if err != nil {
		return false
	}
	e.Size = uint32(fi.Size())
	e.ModifiedAt = fi.ModTime()
	return true
}

// pathDevice is the volume serial number of the volume holding path.
func pathDevice(path string) (uint64, bool) {
	id, ok := pathIdentity(path)
	return id.Dev, ok
}
