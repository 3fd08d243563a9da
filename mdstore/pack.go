package mdstore

import (
	"bufio"
	"bytes"
	"crypto/sha1"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"sync"

	"github.com/curator-dev/curator/internal/parallel"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/idxfile"
	"github.com/klauspost/compress/zlib"
)

// writePack writes objects as one pack file and its index into
// objects/pack/ of gitDir. It is what go-git's pack writer does for a large
// run, without its costs that grow with the store: compression at the
// default level, one object at a time, of objects that are mostly large
// folder trees, and parsing the whole pack back to build its index (the
// index is built as the pack is written). Objects are compressed on all
// cores at the fastest zlib level (klauspost/compress: about twice the
// speed of the standard library's). The pack holds whole objects (no
// deltas), like go-git's.
func writePack(gitDir string, objs []plumbing.EncodedObject) error {
	dir := filepath.Join(gitDir, "objects", "pack")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	packed, err := compressObjects(objs)
	if err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, "tmp_pack_")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer os.Remove(tmp) // after the rename there is nothing left to remove
	sum, crc := sha1.New(), crc32.NewIEEE()
	bw := bufio.NewWriterSize(f, 1<<16)
	w := &countWriter{w: io.MultiWriter(bw, sum, crc)}
	head := make([]byte, 12)
	copy(head, "PACK")
	binary.BigEndian.PutUint32(head[4:], 2)
	binary.BigEndian.PutUint32(head[8:], uint32(len(objs)))
	w.Write(head)
	idx := &idxfile.Writer{}
	if err := idx.OnHeader(uint32(len(objs))); err != nil {
		f.Close()
		return err
	}
	for i, o := range objs {
		start := w.n
		crc.Reset()
		w.Write(objectHeader(o.Type(), o.Size()))
		w.Write(packed[i])
		if err := idx.OnInflatedObjectContent(o.Hash(), start, crc.Sum32(), nil); err != nil {
			f.Close()
			return err
		}
	}
	var packHash plumbing.Hash
	copy(packHash[:], sum.Sum(nil))
	if _, err := bw.Write(packHash[:]); err != nil {
		f.Close()
		return err
	}
	if err := bw.Flush(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := idx.OnFooter(packHash); err != nil {
		return err
	}
	mi, err := idx.Index()
	if err != nil {
		return err
	}
	var idxBuf bytes.Buffer
	if _, err := idxfile.NewEncoder(&idxBuf).Encode(mi); err != nil {
		return err
	}
	base := filepath.Join(dir, "pack-"+packHash.String())
	// The pack first, then its index: git sees a pack once its .idx exists.
	if err := os.Chmod(tmp, 0o444); err != nil {
		return err
	}
	if err := os.Rename(tmp, base+".pack"); err != nil {
		return err
	}
	return writeFile(base+".idx", idxBuf.Bytes(), 0o444, false)
}

// compressObjects zlib-compresses each object's content, on all cores.
func compressObjects(objs []plumbing.EncodedObject) ([][]byte, error) {
	out := make([][]byte, len(objs))
	errs := make([]error, len(objs))
	writers := sync.Pool{New: func() any {
		zw, _ := zlib.NewWriterLevel(nil, zlib.BestSpeed)
		return zw
	}}
	parallel.For(len(objs), func(i int) {
		var buf bytes.Buffer
		buf.Grow(int(objs[i].Size()/2) + 64)
		zw := writers.Get().(*zlib.Writer)
		defer writers.Put(zw)
		zw.Reset(&buf)
		r, err := objs[i].Reader()
		if err == nil {
			_, err = io.Copy(zw, r)
			r.Close()
		}
		if err == nil {
			err = zw.Close()
		}
		out[i], errs[i] = buf.Bytes(), err
	})
	return out, errors.Join(errs...)
}

// countWriter counts the bytes written through it (the pack offsets).
type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// objectHeader is a pack entry's type and size: 3 bits of type, then the
// size 4 bits and 7 bits at a time, low bits first.
func objectHeader(t plumbing.ObjectType, size int64) []byte {
	b := []byte{byte(t)<<4 | byte(size&0x0f)}
	size >>= 4
	for size > 0 {
		b[len(b)-1] |= 0x80
		b = append(b, byte(size&0x7f))
		size >>= 7
	}
	return b
}
