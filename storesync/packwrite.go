package storesync

import (
	"bytes"
	"crypto/sha1"
	"errors"
	"fmt"
	"hash"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/idxfile"
	"github.com/go-git/go-git/v5/plumbing/format/packfile"
	"github.com/go-git/go-git/v5/storage/filesystem"

	"github.com/curator-dev/curator/internal/durable"
)

// A fetch stores the pack it receives through its storage's
// PackfileWriter. go-git's own writer streams the pack into a temporary
// file, then creates pack-<sum>.idx under its final name and writes it in
// place, then renames the pack; it syncs nothing and keeps an existing
// .idx as it is. A run killed while the index is written leaves a 0-byte
// or partial .idx, and the next fetch of the same pack keeps that broken
// index beside the pack: from then on go-git fails with EOF or "object
// not found" and git reports a bad index.
//
// fetchStorage is the repository's storage with one change, the smallest
// that makes a fetched pack appear atomically: its PackfileWriter
// (packWriter) writes the pack to a temporary file (tmp_pack_curator-PID-*)
// and checks its trailing checksum, builds the index into another
// (tmp_idx_curator-PID-*), fsyncs both, and only then renames them into
// place and syncs the folder. go-git updates the fetched refs after the
// writer is closed, so refs never name objects of a pack that is not in
// place; and it writes those refs whole (see refwrite.go). Everything else
// is go-git's storage as it is.
type fetchStorage struct {
	*filesystem.Storage
	packDir string
}

// PackfileWriter is a writer of one fetched pack that publishes it only
// when it is complete.
func (s fetchStorage) PackfileWriter() (io.WriteCloser, error) {
	f, err := os.CreateTemp(s.packDir, tmpPrefix("pack"))
	if err != nil {
		return nil, err
	}
	// go-git's storage lists packs once; the new one is read after Reindex.
	return &packWriter{f: f, dir: s.packDir, h: sha1.New(), published: s.Storage.Reindex}, nil
}

// tmpPrefix names curator's temporary pack files: git's tmp_ prefix
// (git gc knows them), then curator and the process id, so that a later
// run can tell its own leftovers apart from a live git's.
func tmpPrefix(kind string) string {
	return fmt.Sprintf("tmp_%s_%s%d-", kind, curatorTmp, os.Getpid())
}

const curatorTmp = "curator-"

// packWriter receives a pack. The pack's last 20 bytes are the SHA-1 of
// all before them: it hashes what it writes, holding the last 20 bytes
// back, so Close knows whether the whole pack arrived without reading it
// again.
type packWriter struct {
	f         *os.File
	dir       string
	h         hash.Hash
	tail      [20]byte
	tailN     int
	n         int64
	published func()
}

func (w *packWriter) Write(p []byte) (int, error) {
	n, err := w.f.Write(p)
	w.n += int64(n)
	q := p[:n]
	if len(q) >= len(w.tail) {
		w.h.Write(w.tail[:w.tailN])
		w.h.Write(q[:len(q)-len(w.tail)])
		w.tailN = copy(w.tail[:], q[len(q)-len(w.tail):])
		return n, err
	}
	if spill := w.tailN + len(q) - len(w.tail); spill > 0 {
		w.h.Write(w.tail[:spill])
		w.tailN = copy(w.tail[:], w.tail[spill:w.tailN])
	}
	w.tailN += copy(w.tail[w.tailN:], q)
	return n, err
}

// errPartialPack is a pack stream that ended before the pack did.
var errPartialPack = errors.New("the pack ended early (the connection was cut or the fetch stopped); nothing was stored")

// Close publishes the pack when it is whole, and otherwise removes its
// temporary file.
func (w *packWriter) Close() error {
	tmpPack := w.f.Name()
	if w.n == 0 {
		w.f.Close()
		os.Remove(tmpPack)
		return nil
	}
	if w.tailN < len(w.tail) || !bytes.Equal(w.h.Sum(nil), w.tail[:]) {
		w.f.Close()
		os.Remove(tmpPack)
		return errPartialPack
	}
	sum := plumbing.Hash(w.tail)
	err := w.f.Sync()
	if err == nil {
		_, err = w.f.Seek(0, io.SeekStart)
	}
	var tmpIdx string
	if err == nil {
		tmpIdx, err = writeIndex(w.dir, w.f, sum)
	}
	if cerr := w.f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = publishPack(w.dir, tmpPack, tmpIdx, sum)
	}
	if err != nil {
		os.Remove(tmpPack)
		if tmpIdx != "" {
			os.Remove(tmpIdx)
		}
		if errors.Is(err, packfile.ErrEmptyPackfile) {
			return nil
		}
		return err
	}
	w.published()
	return nil
}

// writeIndex reads a whole pack whose checksum is sum and writes its index
// to a temporary file in dir, synced; it returns the file's name.
func writeIndex(dir string, pack io.Reader, sum plumbing.Hash) (string, error) {
	iw := new(idxfile.Writer)
	p, err := packfile.NewParser(packfile.NewScanner(pack), iw)
	if err != nil {
		return "", err
	}
	got, err := p.Parse()
	if err != nil {
		return "", err
	}
	if got != sum {
		return "", fmt.Errorf("pack %s: its trailer says %s", sum, got)
	}
	idx, err := iw.Index()
	if err != nil {
		return "", err
	}
	f, err := os.CreateTemp(dir, tmpPrefix("idx"))
	if err != nil {
		return "", err
	}
	_, err = idxfile.NewEncoder(f).Encode(idx)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(f.Name())
		return "", err
	}
	return f.Name(), nil
}

// publishPack renames a synced pack and its index into place as
// pack-<sum>.pack and pack-<sum>.idx, then syncs the folder.
//
// The index goes first. git reads a pack from its .idx and skips an .idx
// whose .pack is missing; go-git reads a pack from its .pack and fails on
// every read when the .pack has no .idx. So a crash between the two
// renames leaves an index without its pack, which both ignore and the next
// fetch replaces; the other order would leave a pack that stops every
// go-git read until it is repaired. (curator's commits publish their packs
// in the same order.) A pack already in place and whole is kept; an index
// in place is replaced, since it may be the broken leftover of an older
// run.
func publishPack(dir, tmpPack, tmpIdx string, sum plumbing.Hash) error {
	base := filepath.Join(dir, "pack-"+sum.String())
	for _, f := range []string{tmpPack, tmpIdx} {
		if err := os.Chmod(f, 0o444); err != nil {
			return err
		}
	}
	if err := os.Rename(tmpIdx, base+".idx"); err != nil {
		return err
	}
	if packTrailer(base+".pack") == sum {
		os.Remove(tmpPack)
	} else if err := os.Rename(tmpPack, base+".pack"); err != nil {
		return err
	}
	return durable.SyncDir(dir)
}

// packTrailer is the checksum at the end of a pack file that starts as a
// pack does (zero when it is missing or too short).
func packTrailer(path string) plumbing.Hash {
	f, err := os.Open(path)
	if err != nil {
		return plumbing.ZeroHash
	}
	defer f.Close()
	var head [12]byte
	if _, err := io.ReadFull(f, head[:]); err != nil || !bytes.HasPrefix(head[:], []byte("PACK")) {
		return plumbing.ZeroHash
	}
	fi, err := f.Stat()
	if err != nil || fi.Size() < 32 {
		return plumbing.ZeroHash
	}
	var h plumbing.Hash
	if _, err := f.ReadAt(h[:], fi.Size()-20); err != nil {
		return plumbing.ZeroHash
	}
	return h
}

// isCuratorTmp reports whether name is one of curator's temporary pack
// files and the id of the process that wrote it.
func isCuratorTmp(name string) (pid int, ok bool) {
	for _, kind := range []string{"pack", "idx"} {
		rest, found := strings.CutPrefix(name, "tmp_"+kind+"_"+curatorTmp)
		if !found {
			continue
		}
		digits, _, found := strings.Cut(rest, "-")
		if _, err := fmt.Sscanf(digits, "%d", &pid); found && err == nil {
			return pid, true
		}
	}
	return 0, false
}
