package gitcommit

import (
	"syscall"

	"golang.org/x/sys/windows"
)

// detached runs a background git without curator's console and outside
// its process group: a Ctrl-C that ends curator does not end it.
func detached() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{CreationFlags: windows.CREATE_NEW_PROCESS_GROUP | windows.DETACHED_PROCESS}
}
