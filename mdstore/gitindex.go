package mdstore

import (
	"bytes"
	"crypto/sha1"
	"encoding/binary"
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
