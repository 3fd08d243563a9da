package durable

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// WriteFile writes data to path so that a crash leaves either the old or
// the new content: temporary file in the same folder, rename over the
// target. With sync it fsyncs the file and its folder; without, the caller
// makes the batch durable with one SyncAll later.
func WriteFile(path string, data []byte, perm os.FileMode, sync bool) error {
	return WriteFileWith(path, perm, sync, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// WriteFileWith is WriteFile for content that is streamed by fill rather
// than held in memory as a whole.
func WriteFileWith(path string, perm os.FileMode, sync bool, fill func(io.Writer) error) error {
	if fi, err := os.Stat(path); err == nil && !fi.Mode().IsRegular() && !fi.IsDir() {
		return writeInPlace(path, fill)
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, ".tmp-"+filepath.Base(path)+"-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	ok := false
	defer func() {
		if !ok {
			f.Close()
			os.Remove(tmp)
		}
	}()
	bw := bufio.NewWriterSize(f, 1<<16)
	if err := fill(bw); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if sync {
		err = f.Sync()
	} else {
		err = Later(f)
	}
	if err != nil {
		return fmt.Errorf("syncing %s: %w", path, err)
	}
	if err := f.Chmod(perm); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		return err
	}
	ok = true
	if sync {
		return SyncDir(dir)
	}
	return LaterDir(dir)
}

// writeInPlace writes into a path that is not a regular file (a device such
// as /dev/null or /dev/stdout, a named pipe): it is opened and written, never
// replaced, so that `-o /dev/null` discards the output instead of putting a
// file where the device was.
func writeInPlace(path string, fill func(io.Writer) error) error {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(f, 1<<16)
	if err := fill(bw); err != nil {
		f.Close()
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := bw.Flush(); err != nil {
		f.Close()
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return f.Close()
}
