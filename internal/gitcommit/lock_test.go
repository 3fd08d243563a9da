package gitcommit

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// lockDir is a folder standing for .git, with the record in a folder of
// its own, as a store keeps it.
func lockDir(t *testing.T) (dir, record string) {
	t.Helper()
	dir = t.TempDir()
	return dir, filepath.Join(dir, "journal", "git-locks.json")
}

func writeRecord(t *testing.T, record string, locks map[string]any) {
	t.Helper()
	b, _ := json.Marshal(locks)
	os.MkdirAll(filepath.Dir(record), 0o755)
	if err := os.WriteFile(record, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

// files lists the names in dir.
func files(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		if !e.IsDir() {
			names = append(names, e.Name())
		}
	}
	return names
}

// A lock that is the same file as the twin the record names is curator's
// own (killed after the link): it is removed, with its twin and the record.
func TestRemoveStaleLocksRemovesOwnLock(t *testing.T) {
	dir, record := lockDir(t)
	lock, twin := filepath.Join(dir, "index.lock"), filepath.Join(dir, "index.curator-0123456789abcdef.lock")
	os.WriteFile(twin, nil, 0o644)
	if err := os.Link(twin, lock); err != nil {
		t.Skipf("no hard links here: %v", err)
	}
	writeRecord(t, record, map[string]any{lock: twin})
	if err := RemoveStaleLocks(record); err != nil {
		t.Fatal(err)
	}
	if exists(lock) || exists(twin) || exists(record) {
		t.Errorf("left: lock %v, twin %v, record %v", exists(lock), exists(twin), exists(record))
	}
}

// The record is written before the lock exists, so it may name a lock
// that git took instead (curator's link failed, or curator was killed
// before it and git came): that lock is another file and stays.
func TestRemoveStaleLocksLeavesGitsLock(t *testing.T) {
	for _, twinMade := range []bool{false, true} {
		dir, record := lockDir(t)
		lock, twin := filepath.Join(dir, "index.lock"), filepath.Join(dir, "index.curator-0123456789abcdef.lock")
		os.WriteFile(lock, []byte("git's"), 0o644)
		if twinMade {
			os.WriteFile(twin, nil, 0o644)
		}
		writeRecord(t, record, map[string]any{lock: twin})
		if err := RemoveStaleLocks(record); err != nil {
			t.Fatal(err)
		}
		if b, err := os.ReadFile(lock); err != nil || string(b) != "git's" {
			t.Errorf("twin made %v: git's lock was removed or changed (%q, %v)", twinMade, b, err)
		}
		if exists(twin) || exists(record) {
			t.Errorf("twin made %v: left twin %v, record %v", twinMade, exists(twin), exists(record))
		}
	}
}

// A record that is damaged, or of another form, removes nothing.
func TestRemoveStaleLocksTrustsNoOtherRecord(t *testing.T) {
	dir, record := lockDir(t)
	lock := filepath.Join(dir, "index.lock")
	other := filepath.Join(dir, "config")
	os.WriteFile(lock, nil, 0o644)
	os.WriteFile(other, nil, 0o644)
	for _, locks := range []map[string]any{
		{lock: other},                    // not named as a twin
		{lock: lock},                     // the lock itself
		{other: lock},                    // not a lock
		{lock: map[string]int{"dev": 1}}, // an identity
	} {
		writeRecord(t, record, locks)
		if err := RemoveStaleLocks(record); err != nil {
			t.Fatal(err)
		}
		if !exists(lock) || !exists(other) || exists(record) {
			t.Errorf("%v: lock %v, other %v, record %v", locks, exists(lock), exists(other), exists(record))
		}
	}
	os.WriteFile(record, []byte(`{"`+lock+`": "ind`), 0o644) // cut short
	if err := RemoveStaleLocks(record); err != nil || !exists(lock) || exists(record) {
		t.Errorf("cut record: %v, lock %v, record %v", err, exists(lock), exists(record))
	}
}

// A lock taken and committed, or released, leaves no twin and no record;
// the lock is recorded (with its twin, the same file) while it is held.
func TestGitLockLeavesNothing(t *testing.T) {
	dir, record := lockDir(t)
	target := filepath.Join(dir, "HEAD")
	var seen []string
	lockHook = func(path string) {
		b, err := os.ReadFile(record)
		if err != nil {
			t.Errorf("lock %s exists before its record: %v", path, err)
			return
		}
		var locks map[string]string
		json.Unmarshal(b, &locks)
		twin := locks[path]
		a, _ := pathIdentity(path)
		b2, _ := pathIdentity(twin)
		if !isTwinOf(twin, path) || a != b2 {
			t.Errorf("lock %s is not the same file as its recorded twin %q", path, twin)
		}
		seen = append(seen, filepath.Base(path))
	}
	defer func() { lockHook = nil }()
	for _, commit := range []bool{true, false} {
		l, err := takeGitLock(target, time.Second, &lockOwner{file: record})
		if err != nil {
			t.Fatal(err)
		}
		if err := l.write([]byte("ref: refs/heads/main\n"), false); err != nil {
			t.Fatal(err)
		}
		if commit {
			err = l.commit()
		} else {
			l.release()
		}
		if err != nil {
			t.Fatal(err)
		}
		if got := files(t, dir); len(got) != 1 || got[0] != "HEAD" {
			t.Errorf("commit %v: files left %v", commit, got)
		}
		if exists(record) {
			t.Errorf("commit %v: the record is left", commit)
		}
	}
	if len(seen) != 2 {
		t.Errorf("the lock hook saw %v", seen)
	}
}

// While git holds the lock curator waits and then gives up, leaving git's
// lock as it was and nothing of its own.
func TestGitLockWaitsForGit(t *testing.T) {
	dir, record := lockDir(t)
	target := filepath.Join(dir, "index")
	os.WriteFile(target+".lock", []byte("git's"), 0o644)
	_, err := takeGitLock(target, 30*time.Millisecond, &lockOwner{file: record})
	var le *LockError
	if !errors.As(err, &le) {
		t.Fatalf("err %v, want a LockError", err)
	}
	if b, _ := os.ReadFile(target + ".lock"); string(b) != "git's" {
		t.Errorf("git's lock changed: %q", b)
	}
	for _, f := range files(t, dir) {
		if strings.Contains(f, "curator") {
			t.Errorf("left %s", f)
		}
	}
	if exists(record) {
		t.Error("the record is left")
	}
	// Git's lock goes: curator takes it.
	os.Remove(target + ".lock")
	l, err := takeGitLock(target, time.Second, &lockOwner{file: record})
	if err != nil {
		t.Fatal(err)
	}
	l.release()
}
