package gitcommit

import (
	"bufio"
	"bytes"
	"crypto/sha1"
	"encoding/binary"
	"fmt"
	"hash/adler32"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"sync"

	"github.com/curator-dev/curator/internal/durable"
	"github.com/curator-dev/curator/internal/parallel"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/idxfile"
	"github.com/klauspost/compress/flate"
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
func writePack(gitDir string, objs []plumbing.EncodedObject) (*pendingPack, error) {
	dir := filepath.Join(gitDir, "objects", "pack")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	packed, err := compressObjects(objs)
	if err != nil {
		return nil, err
	}
	f, err := os.CreateTemp(dir, tempName("pack"))
	if err != nil {
		return nil, err
	}
	p := &pendingPack{dir: dir, tmpPack: f.Name()}
	fail := func(err error) (*pendingPack, error) {
		f.Close()
		p.discard()
		return nil, err
	}
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
		return fail(err)
	}
	for i, o := range objs {
		start := w.n
		crc.Reset()
		w.Write(objectHeader(o.Type(), o.Size()))
		w.Write(packed[i])
		if err := idx.OnInflatedObjectContent(o.Hash(), start, crc.Sum32(), nil); err != nil {
			return fail(err)
		}
	}
	var packHash plumbing.Hash
	copy(packHash[:], sum.Sum(nil))
	if _, err := bw.Write(packHash[:]); err != nil {
		return fail(err)
	}
	if err := bw.Flush(); err != nil {
		return fail(err)
	}
	if err := durable.Later(f); err != nil {
		return fail(err)
	}
	if err := f.Close(); err != nil {
		p.discard()
		return nil, err
	}
	if err := idx.OnFooter(packHash); err != nil {
		p.discard()
		return nil, err
	}
	mi, err := idx.Index()
	if err != nil {
		p.discard()
		return nil, err
	}
	var idxBuf bytes.Buffer
	if _, err := idxfile.NewEncoder(&idxBuf).Encode(mi); err != nil {
		p.discard()
		return nil, err
	}
	fi, err := os.CreateTemp(dir, tempName("idx"))
	if err != nil {
		p.discard()
		return nil, err
	}
	p.tmpIdx = fi.Name()
	_, err = fi.Write(idxBuf.Bytes())
	if err == nil {
		err = durable.Later(fi)
	}
	if cerr := fi.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		p.discard()
		return nil, err
	}
	p.base = filepath.Join(dir, "pack-"+packHash.String())
	return p, nil
}

// pendingPack is a pack and its index written under temporary names, not
// yet seen by git. publish makes it visible once its content is durable.
type pendingPack struct {
	dir, tmpPack, tmpIdx, base string
}

// publish renames the index into place, then the pack, and syncs the
// folder: git and go-git see a pack only when both files exist, and a
// crash between the renames leaves an index without a pack, which both
// ignore (never a pack without its index). The caller has synced the
// temporary files' content.
func (p *pendingPack) publish() error {
	if p == nil {
		return nil
	}
	for _, f := range []string{p.tmpPack, p.tmpIdx} {
		if err := os.Chmod(f, 0o444); err != nil {
			return err
		}
	}
	if err := os.Rename(p.tmpIdx, p.base+".idx"); err != nil {
		return err
	}
	if err := os.Rename(p.tmpPack, p.base+".pack"); err != nil {
		return err
	}
	return durable.SyncDir(p.dir)
}

// discard removes the temporary files of a pack that will not be used.
func (p *pendingPack) discard() {
	if p == nil {
		return
	}
	for _, f := range []string{p.tmpPack, p.tmpIdx} {
		if f != "" {
			os.Remove(f)
		}
	}
}

// writeLoose writes objects as loose object files (zlib, each by
// temporary file and rename, so a full disk leaves no partial object). An
// object git has already is written again rather than looked up. Each is
// compressed in memory first and written with one call: a tree of
// thousands of entries would otherwise be thousands of small writes.
func writeLoose(gitDir string, objs []plumbing.EncodedObject) error {
	var buf bytes.Buffer
	zw, _ := zlib.NewWriterLevel(&buf, zlib.BestSpeed)
	for _, o := range objs {
		data, err := objectBytes(o)
		if err != nil {
			return err
		}
		h := o.Hash().String()
		dir := filepath.Join(gitDir, "objects", h[:2])
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		f, err := os.CreateTemp(dir, "tmp_obj_")
		if err != nil {
			return err
		}
		buf.Reset()
		zw.Reset(&buf)
		fmt.Fprintf(zw, "%s %d\x00", o.Type(), len(data))
		_, err = zw.Write(data)
		if cerr := zw.Close(); err == nil {
			err = cerr
		}
		if err == nil {
			_, err = f.Write(buf.Bytes())
		}
		if err == nil {
			err = durable.Later(f)
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err == nil {
			err = os.Chmod(f.Name(), 0o444)
		}
		if err == nil {
			err = os.Rename(f.Name(), filepath.Join(dir, h[2:]))
		}
		if err == nil {
			err = durable.LaterDir(dir)
		}
		if err != nil {
			os.Remove(f.Name())
			return fmt.Errorf("writing git object %s: %w", h, err)
		}
	}
	return nil
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

// tempName is the prefix of a pack or index being written: git's tmp_
// prefix (git gc knows it), then curator and the process id, so that a
// later run (curator sync's pack repair) can tell the leftovers of a killed
// curator from the files of a git that is running.
func tempName(kind string) string {
	return fmt.Sprintf("tmp_%s_curator-%d-", kind, os.Getpid())
}
