package gitcommit

import (
	"bufio"
	"bytes"
	"crypto/sha1"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"sort"
	"time"

	"github.com/go-git/go-git/v5/plumbing/format/index"
)

// encodeIndex writes a git index of version 2 or 3 (the versions git and
// go-git write by default). go-git's encoder writes each field through
// reflection, which costs about half a second for a 100,000-entry index;
// a run must cost little more than its own changes. Extensions are not
// written, as with go-git: git rebuilds its caches. Other versions go
// through go-git's encoder.
func encodeIndex(idx *index.Index) ([]byte, error) {
	if idx.Version != 2 && idx.Version != 3 {
		var buf bytes.Buffer
		err := index.NewEncoder(&buf).Encode(idx)
		return buf.Bytes(), err
	}
	sort.SliceStable(idx.Entries, func(i, j int) bool {
		a, b := idx.Entries[i], idx.Entries[j]
		if a.Name != b.Name {
			return a.Name < b.Name
		}
		return a.Stage < b.Stage
	})
	version := uint32(2)
	for _, e := range idx.Entries {
		if e.IntentToAdd || e.SkipWorktree {
			version = 3
		}
	}
	buf := make([]byte, 0, 12+len(idx.Entries)*96+20)
	buf = append(buf, 'D', 'I', 'R', 'C')
	buf = binary.BigEndian.AppendUint32(buf, version)
	buf = binary.BigEndian.AppendUint32(buf, uint32(len(idx.Entries)))
	for _, e := range idx.Entries {
		buf = appendIndexEntry(buf, e)
	}
	sum := sha1.Sum(buf)
	return append(buf, sum[:]...), nil
}

// appendIndexEntry encodes one index entry (version 2, or 3 when extended).
func appendIndexEntry(buf []byte, e *index.Entry) []byte {
	start := len(buf)
	buf = appendTime(buf, e.CreatedAt)
	buf = appendTime(buf, e.ModifiedAt)
	for _, v := range []uint32{e.Dev, e.Inode, uint32(e.Mode), e.UID, e.GID, e.Size} {
		buf = binary.BigEndian.AppendUint32(buf, v)
	}
	buf = append(buf, e.Hash[:]...)
	flags := uint16(e.Stage&0x3) << 12
	if l := len(e.Name); l < 0xFFF {
		flags |= uint16(l)
	} else {
		flags |= 0xFFF
	}
	extended := e.IntentToAdd || e.SkipWorktree
	if extended {
		flags |= 0x4000
	}
	buf = binary.BigEndian.AppendUint16(buf, flags)
	if extended {
		var x uint16
		if e.IntentToAdd {
			x |= 1 << 13
		}
		if e.SkipWorktree {
			x |= 1 << 14
		}
		buf = binary.BigEndian.AppendUint16(buf, x)
	}
	buf = append(buf, e.Name...)
	// 1–8 NULs so that the entry's length is a multiple of 8.
	pad := 8 - (len(buf)-start)%8
	for i := 0; i < pad; i++ {
		buf = append(buf, 0)
	}
	return buf
}

func appendTime(buf []byte, t time.Time) []byte {
	if t.IsZero() {
		return binary.BigEndian.AppendUint64(buf, 0)
	}
	buf = binary.BigEndian.AppendUint32(buf, uint32(t.Unix()))
	return binary.BigEndian.AppendUint32(buf, uint32(t.Nanosecond()))
}

// errIndexFormat sends an index this code does not edit to go-git's codec.
var errIndexFormat = errors.New("index format not read here")

// spliceIndex returns a git index of version 2 or 3 with the entries named
// in drop removed and add put in their place (in git's order). It works on
// the index's bytes: the entries it keeps are copied as they are, so the
// cost of a run is a copy and a checksum of the index, not a decode and an
// encode of every entry. Extensions are not written back, as with go-git:
// git rebuilds its caches. A split or sparse index is refused; other
// versions return errIndexFormat.
func spliceIndex(data []byte, drop map[string]bool, add []*index.Entry) ([]byte, error) {
	return spliceIndexAt(data, drop, add, time.Time{})
}

// spliceIndexAt is spliceIndex for an index file last written at
// written: a kept entry whose file time is not older than that is
// "racily clean" (its file may have changed within the same clock tick
// without its size changing) and is smudged, its size set to 0, as git
// does when it writes an index, so that git reads the file again instead
// of trusting its stat data against the newer index file.
func spliceIndexAt(data []byte, drop map[string]bool, add []*index.Entry, written time.Time) ([]byte, error) {
	var buf bytes.Buffer
	buf.Grow(len(data) + len(add)*96)
	if err := spliceIndexTo(&buf, data, drop, add, written); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// spliceIndexTo is spliceIndexAt written to w as it is made, through a
// small buffer: a run at 100,000 files does not hold a second copy of the
// index (about 11 MB) in fresh memory. The index is read through once
// before anything is written, so a damaged one writes nothing.
func spliceIndexTo(w io.Writer, data []byte, drop map[string]bool, add []*index.Entry, written time.Time) error {
	if len(data) < 12+20 || string(data[:4]) != "DIRC" {
		return errIndexFormat
	}
	body, sum := data[:len(data)-20], data[len(data)-20:]
	if got := sha1.Sum(body); !bytes.Equal(got[:], sum) {
		return errors.New("git index checksum mismatch")
	}
	version := binary.BigEndian.Uint32(data[4:8])
	if version != 2 && version != 3 {
		return errIndexFormat
	}
	n := int(binary.BigEndian.Uint32(data[8:12]))
	kept := 0
	end, err := indexEntries(body, version, n, func(entry, name []byte) {
		if !drop[string(name)] {
			kept++
		}
	})
	if err != nil {
		return err
	}
	for off := end; off+8 <= len(body); {
		switch string(body[off : off+4]) {
		case "link":
			return errors.New("a split git index is not supported; run `git update-index --no-split-index`")
		case "sdir":
			return errors.New("a sparse git index is not supported; run `git sparse-checkout disable` or set index.sparse=false")
		}
		off += 8 + int(binary.BigEndian.Uint32(body[off+4:off+8]))
	}

	sort.Slice(add, func(i, j int) bool { return add[i].Name < add[j].Name })
	h := sha1.New()
	bw := bufio.NewWriterSize(io.MultiWriter(w, h), 64<<10)
	head := make([]byte, 12, 256)
	copy(head, data[:8])
	binary.BigEndian.PutUint32(head[8:12], uint32(kept+len(add)))
	bw.Write(head)
	scratch := head[:0]
	next := 0
	indexEntries(body, version, n, func(entry, name []byte) {
		if drop[string(name)] {
			return
		}
		for ; next < len(add) && add[next].Name < string(name); next++ {
			scratch = appendIndexEntry(scratch[:0], add[next])
			bw.Write(scratch)
		}
		if !written.IsZero() && isRacy(entry, written) {
			scratch = append(scratch[:0], entry...)
			binary.BigEndian.PutUint32(scratch[36:40], 0)
			entry = scratch
		}
		bw.Write(entry)
	})
	for ; next < len(add); next++ {
		scratch = appendIndexEntry(scratch[:0], add[next])
		bw.Write(scratch)
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	_, err = w.Write(h.Sum(nil))
	return err
}

// indexEntries calls fn with each of the n entries of an index body of
// version 2 or 3 (the entry's bytes, padding included, and its name) and
// returns where the entries end.
func indexEntries(body []byte, version uint32, n int, fn func(entry, name []byte)) (int, error) {
	off := 12
	for i := 0; i < n; i++ {
		if off+62 > len(body) {
			return 0, errors.New("git index truncated")
		}
		b := body[off:]
		flags := binary.BigEndian.Uint16(b[60:62])
		head := 62
		if flags&0x4000 != 0 {
			if version < 3 {
				return 0, errors.New("git index: extended entry in a version 2 index")
			}
			head = 64
		}
		nameLen := int(flags & 0xFFF)
		if nameLen == 0xFFF && head <= len(b) {
			nameLen = bytes.IndexByte(b[head:], 0)
		}
		size := (head + nameLen + 8) &^ 7
		if nameLen < 0 || size > len(b) {
			return 0, errors.New("git index: entry runs past the end")
		}
		fn(b[:size], b[head:head+nameLen])
		off += size
	}
	return off, nil
}

// checkIndexExtensions refuses an index curator cannot rewrite without
// breaking it: a split index (extension "link": its entries live in a
// shared index file) or a sparse index ("sdir": folders stand for the
// files below them). It is called before a run changes anything.
func checkIndexExtensions(data []byte) error {
	if len(data) < 12+20 || string(data[:4]) != "DIRC" {
		return errors.New("not a git index (bad signature)")
	}
	version := binary.BigEndian.Uint32(data[4:8])
	body := data[:len(data)-20]
	n := int(binary.BigEndian.Uint32(data[8:12]))
	off := 12
	for i := 0; i < n; i++ {
		if off+62 > len(body) {
			return errors.New("git index truncated")
		}
		b := body[off:]
		head := 62
		if binary.BigEndian.Uint16(b[60:62])&0x4000 != 0 {
			head = 64
		}
		if head > len(b) {
			return errors.New("git index truncated")
		}
		if version == 4 {
			// A varint (bytes of the previous name to drop), then the
			// rest of the name ending in NUL; no padding.
			p := head
			for p < len(b) && b[p]&0x80 != 0 {
				p++
			}
			p++
			end := bytes.IndexByte(b[min(p, len(b)):], 0)
			if end < 0 {
				return errors.New("git index: entry runs past the end")
			}
			off += p + end + 1
			continue
		}
		nameLen := int(binary.BigEndian.Uint16(b[60:62]) & 0xFFF)
		if nameLen == 0xFFF {
			nameLen = bytes.IndexByte(b[head:], 0)
		}
		size := (head + nameLen + 8) &^ 7
		if nameLen < 0 || size > len(b) {
			return errors.New("git index: entry runs past the end")
		}
		off += size
	}
	for off+8 <= len(body) {
		switch string(body[off : off+4]) {
		case "link":
			return fmt.Errorf("%w: the git index is split (core.splitIndex); curator cannot update it safely: run `git config core.splitIndex false && git update-index --no-split-index`, or pass --no-commit", ErrSetting)
		case "sdir":
			return fmt.Errorf("%w: the git index is sparse (index.sparse); curator cannot update it safely: run `git sparse-checkout init --no-sparse-index` (a sparse checkout with a full index works), or pass --no-commit", ErrSetting)
		}
		off += 8 + int(binary.BigEndian.Uint32(body[off+4:off+8]))
	}
	return nil
}

// isRacy reports whether an index entry's file time (bytes 8–12: its
// seconds) is not older than the index file's, to the second. Git built
// without nanosecond times (USE_NSEC) compares whole seconds: a file
// changed in the same second as the index was written would otherwise
// look clean once the index is rewritten a second later, and the user's
// next `git add` of it would stage nothing.
func isRacy(entry []byte, written time.Time) bool {
	return int64(binary.BigEndian.Uint32(entry[8:12])) >= written.Unix()
}
