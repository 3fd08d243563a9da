package storesync

import (
	"bytes"
	"crypto/sha1"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
)

// staleTmp is how long a temporary pack file of another program (git,
// an older curator) must have been left untouched before it is removed:
// a fetch in progress writes to its file all the time.
const staleTmp = time.Hour

// RepairPacks makes objects/pack (packDir) safe to read after a fetch was
// killed, following git's own rules, and returns what it did (one line
// each, naming the files):
//
//   - curator's temporary files of a process that no longer runs are
//     removed, and any other tmp_ file (git's, go-git's) left untouched for
//     an hour;
//   - an index that is truncated or invalid (size, header, trailing
//     checksum) is rebuilt from its pack when the pack is whole, and
//     removed when there is no pack (such an index holds nothing);
//   - a pack without its index (git treats it as absent) is indexed when
//     it is whole, so its objects are kept;
//   - a pack that is not whole — shorter than its index says, or its
//     checksum wrong — is moved aside as .bad with its index: nothing
//     could read it.
//
// A valid pack is never removed, and files it does not recognise are left
// alone.
func RepairPacks(packDir string) ([]string, error) {
	ents, err := os.ReadDir(packDir)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	names := map[string]bool{}
	for _, e := range ents {
		names[e.Name()] = true
	}
	var done []string
	note := func(format, name string) { done = append(done, fmt.Sprintf(format, filepath.Join(packDir, name))) }
	for _, e := range ents {
		name := e.Name()
		path := filepath.Join(packDir, name)
		switch {
		case strings.HasPrefix(name, "tmp_"):
			if staleTemp(path, name) && os.Remove(path) == nil {
				note("removed %s, left by an interrupted fetch", name)
			}
		case strings.HasPrefix(name, "pack-") && strings.HasSuffix(name, ".idx"):
			base := strings.TrimSuffix(name, ".idx")
			hasPack := names[base+".pack"]
			if idxValid(path) {
				if hasPack && !packMatchesIdx(filepath.Join(packDir, base+".pack"), path) && aside(packDir, base) {
					note("moved %s aside (.bad): the pack does not match its index", base+".pack")
				}
				continue
			}
			if !hasPack {
				if os.Remove(path) == nil {
					note("removed %s, a partial index without its pack", name)
				}
				continue
			}
			if err := reindex(packDir, base); err != nil {
				if aside(packDir, base) {
					note("moved %s aside (.bad): both the pack and its index are incomplete", base+".pack")
				}
				continue
			}
			note("rebuilt %s, a partial index, from its pack", name)
		case strings.HasPrefix(name, "pack-") && strings.HasSuffix(name, ".pack"):
			base := strings.TrimSuffix(name, ".pack")
			if names[base+".idx"] {
				continue
			}
			if err := reindex(packDir, base); err != nil {
				if aside(packDir, base) {
					note("moved %s aside (.bad): an incomplete pack without an index", name)
				}
				continue
			}
			note("indexed %s, a pack left without its index", name)
		}
	}
	return done, nil
}

// staleTemp reports whether a temporary file in objects/pack is a
// leftover: curator's of a process that no longer runs, or anyone's left
// untouched for staleTmp.
func staleTemp(path, name string) bool {
	if pid, ok := isCuratorTmp(name); ok && pid != os.Getpid() && !processAlive(pid) {
		return true
	}
	fi, err := os.Stat(path)
	return err == nil && time.Since(fi.ModTime()) > staleTmp
}

// reindex checks that packDir/base.pack is whole (its SHA-1 matches its
// trailer and its name) and writes its index.
func reindex(packDir, base string) error {
	packPath := filepath.Join(packDir, base+".pack")
	sum := plumbing.NewHash(strings.TrimPrefix(base, "pack-"))
	f, err := os.Open(packPath)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := packWhole(f, sum); err != nil {
		return err
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return err
	}
	tmpIdx, err := writeIndex(packDir, f, sum)
	if err != nil {
		return err
	}
	os.Chmod(tmpIdx, 0o444)
	// The pack is in place: its index can follow it (a git publishing the
	// same pack at this moment renames an equal index over this one).
	if err := os.Rename(tmpIdx, filepath.Join(packDir, base+".idx")); err != nil {
		os.Remove(tmpIdx)
		return err
	}
	return nil
}

// errNotWhole is a pack whose content does not match its checksum.
var errNotWhole = io.ErrUnexpectedEOF

// packWhole checks a pack's header and that the SHA-1 of its content is
// its trailer and sum.
func packWhole(f *os.File, sum plumbing.Hash) error {
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	if fi.Size() < 32 || packTrailer(f.Name()) != sum || sum.IsZero() {
		return errNotWhole
	}
	h := sha1.New()
	if _, err := io.Copy(h, io.NewSectionReader(f, 0, fi.Size()-20)); err != nil {
		return err
	}
	if !bytes.Equal(h.Sum(nil), sum[:]) {
		return errNotWhole
	}
	return nil
}

// aside renames a broken pack and its index to .bad, out of git's and
// go-git's sight.
func aside(packDir, base string) bool {
	moved := false
	for _, ext := range []string{".pack", ".idx"} {
		p := filepath.Join(packDir, base+ext)
		if os.Rename(p, p+".bad") == nil {
			moved = true
		}
	}
	return moved
}

// checkedIdx remembers the index files found valid in this process (by
// size and time), so a run that opens the repository several times reads
// each index once.
var checkedIdx sync.Map // path → idxStamp

type idxStamp struct {
	size int64
	mod  time.Time
}

// idxValid reports whether an index file is whole: git's version 2 layout
// (or version 1), a size that matches its object count, and a trailing
// SHA-1 of its content.
func idxValid(path string) bool {
	fi, err := os.Stat(path)
	if err != nil {
		return false
	}
	stamp := idxStamp{fi.Size(), fi.ModTime()}
	if v, ok := checkedIdx.Load(path); ok && v.(idxStamp) == stamp {
		return true
	}
	b, err := os.ReadFile(path)
	if err != nil || !idxLayoutValid(b) {
		return false
	}
	checkedIdx.Store(path, stamp)
	return true
}

// idxLayoutValid checks an index's bytes.
func idxLayoutValid(b []byte) bool {
	fanout := b
	v2 := bytes.HasPrefix(b, []byte{0xff, 't', 'O', 'c', 0, 0, 0, 2})
	if v2 {
		fanout = b[8:]
	}
	if len(fanout) < 256*4+40 {
		return false
	}
	n := int64(binary.BigEndian.Uint32(fanout[255*4:]))
	size := int64(len(b))
	if v2 {
		min := 8 + 256*4 + n*(20+4+4) + 40
		if size < min || size > min+8*n || (size-min)%8 != 0 {
			return false
		}
	} else if size != 256*4+n*24+40 {
		return false
	}
	sum := sha1.Sum(b[:len(b)-20])
	return bytes.Equal(sum[:], b[len(b)-20:])
}

// packMatchesIdx checks, cheaply, that a pack is the one its (valid)
// index describes: the pack's header and trailer, its object count and a
// size past the last object the index names.
func packMatchesIdx(packPath, idxPath string) bool {
	b, err := os.ReadFile(idxPath)
	if err != nil || len(b) < 256*4+40 {
		return false
	}
	var want plumbing.Hash
	copy(want[:], b[len(b)-40:len(b)-20])
	if packTrailer(packPath) != want {
		return false
	}
	f, err := os.Open(packPath)
	if err != nil {
		return false
	}
	defer f.Close()
	var head [12]byte
	if _, err := io.ReadFull(f, head[:]); err != nil {
		return false
	}
	fi, err := f.Stat()
	if err != nil {
		return false
	}
	v2 := bytes.HasPrefix(b, []byte{0xff, 't', 'O', 'c'})
	fanout := b
	if v2 {
		fanout = b[8:]
	}
	n := binary.BigEndian.Uint32(fanout[255*4:])
	if binary.BigEndian.Uint32(head[8:]) != n {
		return false
	}
	if !v2 {
		return true // version 1 offsets are not worth reading here
	}
	// The largest offset: 4-byte offsets follow the names and CRCs; one
	// with the high bit set points into the 8-byte table after them.
	offs := fanout[256*4+int(n)*24:]
	large := offs[int(n)*4:]
	var last uint64
	for i := 0; i < int(n); i++ {
		o := uint64(binary.BigEndian.Uint32(offs[i*4:]))
		if o&0x80000000 != 0 {
			j := int(o &^ 0x80000000)
			if (j+1)*8 > len(large)-40 {
				return false
			}
			o = binary.BigEndian.Uint64(large[j*8:])
		}
		last = max(last, o)
	}
	return uint64(fi.Size()) >= last+20+2
}
