package gittree

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"
	"github.com/klauspost/compress/zlib"
)

// Objects reads the objects of one repository as bytes, as git does: from
// its pack files (found through their index, inflated straight into the
// object's size, deltas applied to bases kept for the next read) and its
// loose objects. An object found in neither (an alternate's, a pack written
// after Open), or one that does not read, is asked of the fallback storage.
type Objects struct {
	dir    string
	packs  []*pack
	opened map[string]bool // the index files of packs

	fallback storer.EncodedObjectStorer
	in       packReader
	zr       io.ReadCloser
	bases    map[baseKey]kept
	kept     int // bytes in bases
}

type pack struct {
	f    *os.File
	data []byte // the file mapped (nil: read with ReadAt)
	size int64
	idx  []byte
	n    int
}

type kept struct {
	t plumbing.ObjectType
	b []byte
}

type baseKey struct {
	p   *pack
	off int64
}

// keptBytes bounds the bytes of the objects kept as delta bases.
const keptBytes = 64 << 20

// OpenObjects reads the pack indexes of the repository whose git folder is
// gitDir (a linked worktree's reads its common folder's); fallback reads
// what they do not hold. Close closes the pack files.
func OpenObjects(gitDir string, fallback storer.EncodedObjectStorer) *Objects {
	if common, err := os.ReadFile(filepath.Join(gitDir, "commondir")); err == nil {
		c := strings.TrimSpace(string(common))
		if !filepath.IsAbs(c) {
			c = filepath.Join(gitDir, c)
		}
		gitDir = c
	}
	o := &Objects{fallback: fallback, bases: map[baseKey]kept{}}
	if gitDir == "" {
		return o
	}
	o.dir = filepath.Join(gitDir, "objects")
	o.opened = map[string]bool{}
	o.openNewPacks()
	return o
}

// openNewPacks opens the packs whose indexes were not opened before; false
// when there is none.
func (o *Objects) openNewPacks() bool {
	idxs, _ := filepath.Glob(filepath.Join(o.dir, "pack", "pack-*.idx"))
	added := false
	for _, name := range idxs {
		if o.opened[name] {
			continue
		}
		if p := openPack(name); p != nil {
			o.packs = append(o.packs, p)
			o.opened[name], added = true, true
		}
	}
	return added
}

// openPack opens one version-2 pack index and its pack (nil when either
// is missing or of another format: its objects are then the fallback's).
func openPack(idxName string) *pack {
	idx, err := os.ReadFile(idxName)
	if err != nil || len(idx) < 8+256*4+40 || !bytes.Equal(idx[:8], []byte{0xff, 't', 'O', 'c', 0, 0, 0, 2}) {
		return nil
	}
	n := int(binary.BigEndian.Uint32(idx[8+255*4:]))
	if len(idx) < 8+256*4+n*28+40 {
		return nil
	}
	f, err := os.Open(strings.TrimSuffix(idxName, ".idx") + ".pack")
	if err != nil {
		return nil
	}
	st, err := f.Stat()
	if err != nil || st.Size() < 32 {
		f.Close()
		return nil
	}
	p := &pack{f: f, size: st.Size(), idx: idx, n: n}
	p.data, _ = mapFile(f, p.size)
	return p
}

// Close closes the pack files.
func (o *Objects) Close() error {
	var first error
	for _, p := range o.packs {
		if p.data != nil {
			unmapFile(p.data)
		}
		if err := p.f.Close(); err != nil && first == nil {
			first = err
		}
	}
	o.packs, o.bases = nil, nil
	return first
}

// offset is where h starts in p (false: p does not hold it).
func (p *pack) offset(h plumbing.Hash) (int64, bool) {
	fan := func(b int) int {
		if b < 0 {
			return 0
		}
		return int(binary.BigEndian.Uint32(p.idx[8+b*4:]))
	}
	const names = 8 + 256*4
	lo, hi := fan(int(h[0])-1), fan(int(h[0]))
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		switch c := bytes.Compare(p.idx[names+m*20:names+m*20+20], h[:]); {
		case c == 0:
			o32 := binary.BigEndian.Uint32(p.idx[names+p.n*24+m*4:])
			if o32&0x80000000 == 0 {
				return int64(o32), true
			}
			at := names + p.n*28 + int(o32&0x7fffffff)*8
			if at+8 > len(p.idx) {
				return 0, false
			}
			return int64(binary.BigEndian.Uint64(p.idx[at:])), true
		case c < 0:
			lo = m + 1
		default:
			hi = m
		}
	}
	return 0, false
}

// emptyTree is the hash of the tree without entries, which git knows
// without storing it.
var emptyTree = plumbing.NewHash("4b825dc642cb6eb9a060e54bf8d69288fbee4904")

// Read is the type and content of object h. An object found nowhere is
// looked for once more in the packs written since they were listed, as git
// does: a git gc running meanwhile packs loose objects into a new pack and
// removes them.
func (o *Objects) Read(h plumbing.Hash) (plumbing.ObjectType, []byte, error) {
	t, b, err := o.read(h)
	if errors.Is(err, plumbing.ErrObjectNotFound) && o.dir != "" && o.openNewPacks() {
		return o.read(h)
	}
	return t, b, err
}

func (o *Objects) read(h plumbing.Hash) (plumbing.ObjectType, []byte, error) {
	if h == emptyTree {
		return plumbing.TreeObject, []byte{}, nil
	}
	for _, p := range o.packs {
		if off, ok := p.offset(h); ok {
			if t, b, err := o.packed(p, off, 0); err == nil {
				return t, b, nil
			}
			break // a damaged or replaced pack: ask the fallback
		}
	}
	if o.dir != "" {
		if t, b, err := o.loose(h); err == nil {
			return t, b, nil
		}
	}
	return o.fromFallback(h)
}

// ReadType is the content of object h, which must be of type t.
func (o *Objects) ReadType(h plumbing.Hash, t plumbing.ObjectType) ([]byte, error) {
	got, b, err := o.Read(h)
	if err != nil {
		return nil, err
	}
	if got != t {
		return nil, fmt.Errorf("object %s is a %s, not a %s", h, got, t)
	}
	return b, nil
}

// CommitTree is the tree of commit h.
func (o *Objects) CommitTree(h plumbing.Hash) (plumbing.Hash, error) {
	b, err := o.ReadType(h, plumbing.CommitObject)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	var t plumbing.Hash
	if len(b) < 46 || string(b[:5]) != "tree " || b[45] != '\n' {
		return t, fmt.Errorf("commit %s: %w", h, object.ErrMalformedCommit)
	}
	if _, err := hex.Decode(t[:], b[5:45]); err != nil {
		return t, fmt.Errorf("commit %s: %w", h, object.ErrMalformedCommit)
	}
	return t, nil
}

func (o *Objects) fromFallback(h plumbing.Hash) (plumbing.ObjectType, []byte, error) {
	if o.fallback == nil {
		return plumbing.InvalidObject, nil, plumbing.ErrObjectNotFound
	}
	obj, err := o.fallback.EncodedObject(plumbing.AnyObject, h)
	if err != nil {
		return plumbing.InvalidObject, nil, err
	}
	r, err := obj.Reader()
	if err != nil {
		return plumbing.InvalidObject, nil, err
	}
	defer r.Close()
	b := make([]byte, obj.Size())
	if _, err := io.ReadFull(r, b); err != nil {
		return plumbing.InvalidObject, nil, err
	}
	return obj.Type(), b, nil
}

// loose reads h from its own file under objects/.
func (o *Objects) loose(h plumbing.Hash) (plumbing.ObjectType, []byte, error) {
	s := h.String()
	raw, err := os.ReadFile(filepath.Join(o.dir, s[:2], s[2:]))
	if err != nil {
		return plumbing.InvalidObject, nil, err
	}
	zr, err := zlib.NewReader(bytes.NewReader(raw))
	if err != nil {
		return plumbing.InvalidObject, nil, err
	}
	defer zr.Close()
	data, err := io.ReadAll(zr)
	if err != nil {
		return plumbing.InvalidObject, nil, err
	}
	head, body, ok := bytes.Cut(data, []byte{0})
	kind, size, ok2 := strings.Cut(string(head), " ")
	n, err := strconv.Atoi(size)
	t, terr := plumbing.ParseObjectType(kind)
	if !ok || !ok2 || err != nil || terr != nil || n != len(body) {
		return plumbing.InvalidObject, nil, fmt.Errorf("loose object %s: bad header", s)
	}
	return t, body, nil
}

// packed reads the object at off in p, its delta bases first.
func (o *Objects) packed(p *pack, off int64, depth int) (plumbing.ObjectType, []byte, error) {
	if k, ok := o.bases[baseKey{p, off}]; ok {
		return k.t, k.b, nil
	}
	if depth > 10000 {
		return plumbing.InvalidObject, nil, errors.New("delta chain too long")
	}
	o.in.reset(p, off, p.size-20)
	c, err := o.in.ReadByte()
	if err != nil {
		return plumbing.InvalidObject, nil, err
	}
	t := plumbing.ObjectType((c >> 4) & 7)
	size := int64(c & 15)
	for shift := 4; c&0x80 != 0; shift += 7 {
		if c, err = o.in.ReadByte(); err != nil {
			return plumbing.InvalidObject, nil, err
		}
		size |= int64(c&0x7f) << shift
	}
	var baseOff int64
	var baseHash plumbing.Hash
	switch t {
	case plumbing.CommitObject, plumbing.TreeObject, plumbing.BlobObject, plumbing.TagObject:
		b, err := o.inflate(size)
		if err == nil && t == plumbing.TreeObject {
			o.keep(p, off, t, b)
		}
		return t, b, err
	case plumbing.OFSDeltaObject:
		c, err := o.in.ReadByte()
		if err != nil {
			return plumbing.InvalidObject, nil, err
		}
		back := int64(c & 0x7f)
		for c&0x80 != 0 {
			if c, err = o.in.ReadByte(); err != nil {
				return plumbing.InvalidObject, nil, err
			}
			back = (back+1)<<7 | int64(c&0x7f)
		}
		if baseOff = off - back; baseOff <= 0 {
			return plumbing.InvalidObject, nil, errors.New("bad delta offset")
		}
	case plumbing.REFDeltaObject:
		if _, err := io.ReadFull(&o.in, baseHash[:]); err != nil {
			return plumbing.InvalidObject, nil, err
		}
	default:
		return plumbing.InvalidObject, nil, fmt.Errorf("object type %d in a pack", t)
	}
	delta, err := o.inflate(size)
	if err != nil {
		return plumbing.InvalidObject, nil, err
	}
	var bt plumbing.ObjectType
	var base []byte
	if t == plumbing.OFSDeltaObject {
		bt, base, err = o.packed(p, baseOff, depth+1)
		if err == nil {
			o.keep(p, baseOff, bt, base)
		}
	} else {
		bt, base, err = o.Read(baseHash)
	}
	if err != nil {
		return plumbing.InvalidObject, nil, err
	}
	b, err := patchDelta(base, delta)
	if err == nil && bt == plumbing.TreeObject {
		o.keep(p, off, bt, b)
	}
	return bt, b, err
}

// keep holds an object that may be a delta's base (trees, which the next
// commit's tree is often a delta of, and every base used), within
// keptBytes.
func (o *Objects) keep(p *pack, off int64, t plumbing.ObjectType, b []byte) {
	k := baseKey{p, off}
	if _, ok := o.bases[k]; ok {
		return
	}
	if o.kept+len(b) > keptBytes {
		clear(o.bases)
		o.kept = 0
	}
	if len(b) > keptBytes/4 {
		return
	}
	o.bases[k] = kept{t, b}
	o.kept += len(b)
}

// inflate reads the zlib stream at the reader's place into size bytes.
func (o *Objects) inflate(size int64) ([]byte, error) {
	var err error
	if o.zr == nil {
		o.zr, err = zlib.NewReader(&o.in)
	} else {
		err = o.zr.(zlib.Resetter).Reset(&o.in, nil)
	}
	if err != nil {
		return nil, err
	}
	b := make([]byte, size)
	if _, err := io.ReadFull(o.zr, b); err != nil {
		return nil, fmt.Errorf("inflating a packed object: %w", err)
	}
	return b, nil
}

// packReader reads a pack file from an offset: a mapped pack in place,
// another with reads each twice the size of the one before (a commit costs
// one small read, a large tree few).
type packReader struct {
	r        io.ReaderAt
	off, end int64
	buf      []byte
	i, n     int
	chunk    int
}

func (r *packReader) reset(p *pack, off, end int64) {
	if off < 0 || off >= end {
		off = end
	}
	if p.data != nil {
		r.r, r.buf, r.off, r.end, r.i, r.n = nil, p.data[off:end], end, end, 0, int(end-off)
		return
	}
	if r.r == nil {
		r.buf = nil // the last pack's mapping
	}
	r.r, r.off, r.end, r.i, r.n, r.chunk = p.f, off, end, 0, 0, 4096
}

func (r *packReader) fill() error {
	if r.off >= r.end {
		return io.ErrUnexpectedEOF
	}
	want := int64(r.chunk)
	if left := r.end - r.off; left < want {
		want = left
	}
	if int64(cap(r.buf)) < want {
		r.buf = make([]byte, want)
	}
	n, err := r.r.ReadAt(r.buf[:want], r.off)
	if n == 0 {
		if err == nil || err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return err
	}
	r.off += int64(n)
	r.i, r.n = 0, n
	if r.chunk < 1<<20 {
		r.chunk *= 2
	}
	return nil
}

func (r *packReader) ReadByte() (byte, error) {
	if r.i >= r.n {
		if err := r.fill(); err != nil {
			return 0, err
		}
	}
	c := r.buf[r.i]
	r.i++
	return c, nil
}

func (r *packReader) Read(p []byte) (int, error) {
	if r.i >= r.n {
		if err := r.fill(); err != nil {
			return 0, err
		}
	}
	n := copy(p, r.buf[r.i:r.n])
	r.i += n
	return n, nil
}
