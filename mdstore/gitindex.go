package mdstore

import (
	"bytes"
	"crypto/sha1"
	"encoding/binary"
	"errors"
	"sort"
	"time"

	"github.com/go-git/go-git/v5/plumbing/filemode"
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
	}
	sum := sha1.Sum(buf)
	return append(buf, sum[:]...), nil
}

func appendTime(buf []byte, t time.Time) []byte {
	if t.IsZero() {
		return binary.BigEndian.AppendUint64(buf, 0)
	}
	buf = binary.BigEndian.AppendUint32(buf, uint32(t.Unix()))
	return binary.BigEndian.AppendUint32(buf, uint32(t.Nanosecond()))
}

// errIndexFormat sends an index this decoder does not read to go-git's.
var errIndexFormat = errors.New("index format not read here")

// decodeIndex reads a git index of version 2 or 3, the counterpart of
// encodeIndex, about ten times faster than go-git's decoder on a large
// index. Extensions are skipped (curator writes none back); a split index
// ("link") is refused. Other versions return errIndexFormat.
func decodeIndex(data []byte) (*index.Index, error) {
	if len(data) < 12+20 || string(data[:4]) != "DIRC" {
		return nil, errIndexFormat
	}
	body, sum := data[:len(data)-20], data[len(data)-20:]
	if got := sha1.Sum(body); !bytes.Equal(got[:], sum) {
		return nil, errors.New("git index checksum mismatch")
	}
	version := binary.BigEndian.Uint32(data[4:8])
	if version != 2 && version != 3 {
		return nil, errIndexFormat
	}
	n := int(binary.BigEndian.Uint32(data[8:12]))
	idx := &index.Index{Version: version, Entries: make([]*index.Entry, 0, n)}
	off := 12
	for i := 0; i < n; i++ {
		if off+62 > len(body) {
			return nil, errors.New("git index truncated")
		}
		b := body[off:]
		u32 := func(at int) uint32 { return binary.BigEndian.Uint32(b[at:]) }
		e := &index.Entry{
			CreatedAt:  indexTime(u32(0), u32(4)),
			ModifiedAt: indexTime(u32(8), u32(12)),
			Dev:        u32(16), Inode: u32(20), Mode: filemode.FileMode(u32(24)),
			UID: u32(28), GID: u32(32), Size: u32(36),
		}
		copy(e.Hash[:], b[40:60])
		flags := binary.BigEndian.Uint16(b[60:62])
		e.Stage = index.Stage(flags >> 12 & 0x3)
		head := 62
		if flags&0x4000 != 0 {
			if version < 3 || len(b) < 64 {
				return nil, errors.New("git index: extended entry in a version 2 index")
			}
			x := binary.BigEndian.Uint16(b[62:64])
			e.IntentToAdd, e.SkipWorktree = x&(1<<13) != 0, x&(1<<14) != 0
			head = 64
		}
		nameLen := int(flags & 0xFFF)
		if nameLen == 0xFFF {
			nameLen = bytes.IndexByte(b[head:], 0)
		}
		if nameLen < 0 || head+nameLen > len(b) {
			return nil, errors.New("git index: entry name runs past the end")
		}
		e.Name = string(b[head : head+nameLen])
		off += (head + nameLen + 8) &^ 7
		idx.Entries = append(idx.Entries, e)
	}
	for off+8 <= len(body) {
		sig := string(body[off : off+4])
		size := int(binary.BigEndian.Uint32(body[off+4 : off+8]))
		if sig == "link" {
			return nil, errors.New("a split git index is not supported; run `git update-index --no-split-index`")
		}
		off += 8 + size
	}
	return idx, nil
}

// indexTime is a stat time of the index; 0:0 is no time, as go-git reads it.
func indexTime(sec, nsec uint32) time.Time {
	if sec == 0 && nsec == 0 {
		return time.Time{}
	}
	return time.Unix(int64(sec), int64(nsec))
}
