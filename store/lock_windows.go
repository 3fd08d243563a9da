package store

import (
	"errors"
	"os"

	"golang.org/x/sys/windows"
)

// lockRange is the byte range locked: one byte far past the file's
// content, so that the holder's pid written at the start stays readable
// by the process that waits (Windows locks are mandatory).
var lockRange = windows.Overlapped{OffsetHigh: 1}

// tryLock takes an exclusive LockFileEx lock on f without waiting; false
// when another process holds it.
func tryLock(f *os.File) (bool, error) {
	ol := lockRange
	err := windows.LockFileEx(windows.Handle(f.Fd()), windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0, &ol)
	if errors.Is(err, windows.ERROR_LOCK_VIOLATION) || errors.Is(err, windows.ERROR_IO_PENDING) {
		return false, nil
	}
	return err == nil, err
}

func unlock(f *os.File) {
	ol := lockRange
	windows.UnlockFileEx(windows.Handle(f.Fd()), 0, 1, 0, &ol)
}
