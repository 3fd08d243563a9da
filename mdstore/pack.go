package mdstore

import (
	"bufio"
	"bytes"
	"crypto/sha1"
	"encoding/binary"
	"hash/adler32"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"sync"

	"github.com/curator-dev/curator/internal/parallel"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/idxfile"
	"github.com/klauspost/compress/flate"
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

// packChunk is the size of the pieces a large object is compressed in.
const packChunk = 256 << 10

// compressObjects zlib-compresses each object's content, on all cores. A
// large object (a folder tree of 60,000 entries is 2.4 MB) is cut into
// pieces that are deflated at the same time and joined into one zlib
// stream, as pigz does: every piece but the last ends with a sync flush,
// so the pieces form one valid deflate stream, followed by the Adler-32
// of the whole content.
func compressObjects(objs []plumbing.EncodedObject) ([][]byte, error) {
	contents := make([][]byte, len(objs))
	type piece struct{ obj, first, last int }
	var pieces []piece
	for i, o := range objs {
		data, err := objectBytes(o)
		if err != nil {
			return nil, err
		}
		contents[i] = data
		for at := 0; at == 0 || at < len(data); at += packChunk {
			pieces = append(pieces, piece{obj: i, first: at, last: min(at+packChunk, len(data))})
		}
	}
	deflated := make([][]byte, len(pieces))
	writers := sync.Pool{New: func() any {
		fw, _ := flate.NewWriter(nil, flate.BestSpeed)
		return fw
	}}
	parallel.For(len(pieces), func(k int) {
		p := pieces[k]
		var buf bytes.Buffer
		buf.Grow((p.last-p.first)/2 + 64)
		fw := writers.Get().(*flate.Writer)
		defer writers.Put(fw)
		fw.Reset(&buf)
		fw.Write(contents[p.obj][p.first:p.last])
		if p.last == len(contents[p.obj]) {
			fw.Close()
		} else {
			fw.Flush()
		}
		deflated[k] = buf.Bytes()
	})
	out := make([][]byte, len(objs))
	for k, p := range pieces {
		if p.first == 0 {
			out[p.obj] = append(make([]byte, 0, len(deflated[k])+6), 0x78, 0x01) // zlib header: deflate, fastest
		}
		out[p.obj] = append(out[p.obj], deflated[k]...)
		if p.last == len(contents[p.obj]) {
			out[p.obj] = binary.BigEndian.AppendUint32(out[p.obj], adler32.Checksum(contents[p.obj]))
		}
	}
	return out, nil
}

// objectBytes is an object's content (read in place for curator's own objects).
func objectBytes(o plumbing.EncodedObject) ([]byte, error) {
	if r, ok := o.(*rawObject); ok {
		return r.data, nil
	}
	return readObjectContent(o)
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
