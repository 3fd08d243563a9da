package store

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// ErrLocked means another curator run holds the store's lock.
var ErrLocked = errors.New("another curator run holds the store's lock")

// LockError names the process that holds the lock.
type LockError struct {
	PID  int
	Path string
}

func (e *LockError) Error() string {
	return fmt.Sprintf("%v (pid %d, %s); try again when it ends", ErrLocked, e.PID, e.Path)
}

func (e *LockError) Unwrap() error { return ErrLocked }

// Lock is held while a run changes the store. The operating system releases
// it when the process dies, so a crash never leaves the store locked (flock
// on Unix, LockFileEx on Windows).
type Lock struct{ f *os.File }

// lock takes the store's lock, waiting up to timeout.
func lock(path string, timeout time.Duration) (*Lock, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	deadline := time.Now().Add(timeout)
	for {
		held, err := tryLock(f)
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("locking %s: %w", path, err)
		}
		if held {
			break
		}
		if time.Now().After(deadline) {
			b, _ := os.ReadFile(path)
			pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
			f.Close()
			return nil, &LockError{PID: pid, Path: path}
		}
		time.Sleep(50 * time.Millisecond)
	}
	if err := f.Truncate(0); err == nil {
		f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	return &Lock{f: f}, nil
}

// Unlock releases the lock.
func (l *Lock) Unlock() error {
	if l == nil || l.f == nil {
		return nil
	}
	l.f.Truncate(0)
	unlock(l.f)
	err := l.f.Close()
	l.f = nil
	return err
}
