//go:build unix

package durable

import (
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// A path that is not a regular file (here a named pipe, as /dev/null is a
// device) is written into, never replaced by a file.
func TestWriteFileIntoANamedPipe(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "out")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no named pipes here:", err)
	}
	got := make(chan []byte, 1)
	go func() {
		f, err := os.Open(fifo)
		if err != nil {
			got <- nil
			return
		}
		defer f.Close()
		b, _ := io.ReadAll(f)
		got <- b
	}()
	if err := WriteFile(fifo, []byte("report\n"), 0o644, true); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Lstat(fifo)
	if err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Fatalf("the named pipe was replaced: %v %v", fi.Mode(), err)
	}
	select {
	case b := <-got:
		if string(b) != "report\n" {
			t.Errorf("the pipe's reader got %q", b)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("nothing was written into the pipe")
	}
	if left, _ := filepath.Glob(filepath.Join(filepath.Dir(fifo), ".tmp-*")); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}
