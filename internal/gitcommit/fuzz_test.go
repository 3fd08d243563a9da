package gitcommit

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/idxfile"
	"github.com/go-git/go-git/v5/plumbing/format/index"
	"github.com/go-git/go-git/v5/plumbing/format/packfile"
	"github.com/go-git/go-git/v5/storage/memory"
)

// realIndex is the index git writes for a small repository (a TREE
// extension, an extended entry, a long name), for seed corpora.
func realIndex(f *testing.F) []byte {
	f.Helper()
	if _, err := runGit(".", "", "version"); err != nil {
		return nil
	}
	dir := f.TempDir()
	for _, p := range []string{"a.txt", "sub/b.md", "sub/" + strings.Repeat("n", 200) + ".md"} {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, p)), 0o755)
		os.WriteFile(filepath.Join(dir, p), []byte(p), 0o644)
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"commit", "-qm", "x"}, {"update-index", "--skip-worktree", "a.txt"}, {"write-tree"}} {
		if _, err := runGit(dir, "", args...); err != nil {
			f.Fatal(err)
		}
	}
	data, err := os.ReadFile(filepath.Join(dir, ".git", "index"))
	if err != nil {
		f.Fatal(err)
	}
	return data
}

// The index reader (splice and the extension check) never panics; what it
// writes reads back to the same bytes, and go-git and our encoder agree on
// its entries.
func FuzzIndex(f *testing.F) {
	if data := realIndex(f); data != nil {
		f.Add(data)
	}
	at := time.Date(2026, 11, 29, 9, 0, 0, 5, time.UTC)
	for _, v := range []uint32{2, 3} {
		idx := &index.Index{Version: v}
		for i, n := range []string{"a", "b/c.md", strings.Repeat("x", 0x1000)} {
			idx.Entries = append(idx.Entries, &index.Entry{Name: n, Mode: filemode.Regular, ModifiedAt: at, Size: uint32(i), SkipWorktree: v == 3 && i == 1})
		}
		data, err := encodeIndex(idx)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkIndexExtensions(data)
		out, err := spliceIndexAt(data, map[string]bool{"a": true}, nil, time.Unix(1, 0))
		if err != nil {
			return
		}
		again, err := spliceIndex(out, nil, nil)
		if err != nil || !bytes.Equal(again, out) {
			t.Fatalf("a written index does not read back: %v", err)
		}
		if err := checkIndexExtensions(out); err != nil {
			t.Fatalf("a written index is refused: %v", err)
		}
		idx := &index.Index{}
		if index.NewDecoder(bytes.NewReader(out)).Decode(idx) != nil {
			return // entries out of order or names go-git refuses: git's rules, not ours
		}
		enc, err := encodeIndex(idx)
		if err != nil {
			t.Fatal(err)
		}
		back := &index.Index{}
		if err := index.NewDecoder(bytes.NewReader(enc)).Decode(back); err != nil || len(back.Entries) != len(idx.Entries) {
			t.Fatalf("re-encoded index: %v", err)
		}
		for i, e := range idx.Entries {
			if b := back.Entries[i]; b.Name != e.Name || b.Hash != e.Hash || b.Size != e.Size || b.Stage != e.Stage {
				t.Fatalf("entry %d: %+v, re-encoded %+v", i, e, b)
			}
		}
	})
}

// tree builds the content of a tree object from name → (mode, hash).
func treeBytes(entries ...string) []byte {
	var b []byte
	for i, e := range entries {
		mode, name, _ := strings.Cut(e, " ")
		b = append(b, mode+" "+name+"\x00"...)
		h := plumbing.ComputeHash(plumbing.BlobObject, []byte{byte(i)})
		b = append(b, h[:]...)
	}
	return b
}

// The tree reader never panics; a tree edited with nothing is the tree it
// was; an edited file is in the result and the rest keep their order.
func FuzzTree(f *testing.F) {
	f.Add(treeBytes("100644 a-b.md", "100644 a.md", "40000 a", "100644 a0.md", "120000 link"), "a.md", false)
	f.Add(treeBytes("040000 .curator", "100755 run.sh", "160000 sub"), "new.md", false)
	f.Add([]byte{}, "x", true)
	f.Fuzz(func(t *testing.T, base []byte, name string, remove bool) {
		var n int
		if eachTreeEntry(base, func(treeEntry) { n++ }) != nil {
			return
		}
		mem := memory.NewStorage()
		ts := trees{repo: mem, out: mem, cache: emptyObjectCache("")}
		h, err := (&treeEdit{}).build(ts, "", base)
		if err != nil {
			t.Fatal(err)
		}
		if len(base) > 0 && h != objectHash(plumbing.TreeObject, base) {
			t.Fatal("a tree edited with nothing changed")
		}
		if name == "" || strings.ContainsAny(name, "/\x00") {
			return
		}
		blob := plumbing.ComputeHash(plumbing.BlobObject, []byte(name))
		e := &treeEdit{}
		if remove {
			blob = plumbing.ZeroHash
		}
		e.set(name, blob)
		h, err = e.build(ts, "", base)
		if err != nil {
			return // a folder of that name is read from the (empty) repository
		}
		var got []byte
		if !h.IsZero() {
			if got, err = readObject(mem, plumbing.TreeObject, h); err != nil {
				t.Fatal(err)
			}
		}
		found := false
		if err := eachTreeEntry(got, func(te treeEntry) {
			if string(te.name) == name && !te.dir {
				found = true
			}
		}); err != nil {
			t.Fatalf("an edited tree does not read back: %v", err)
		}
		if found == remove {
			t.Fatalf("%q set=%v: found %v", name, !remove, found)
		}
	})
}

// The pack writer's output reads back through go-git's pack index and
// pack reader: every object, with its type and content.
func FuzzPack(f *testing.F) {
	f.Add([]byte("---\nid: m1\n---\nbody\n"), []byte(strings.Repeat("tree entry ", 100)), 3)
	f.Add([]byte{}, bytes.Repeat([]byte{0}, packChunk+7), 1)
	f.Fuzz(func(t *testing.T, a, b []byte, copies int) {
		if copies < 1 || copies > 5 || len(a)+len(b) > 4*packChunk {
			return
		}
		var objs []plumbing.EncodedObject
		seen := map[plumbing.Hash]bool{}
		for i := 0; i < copies; i++ {
			for _, o := range []*rawObject{newBlob(append(a, byte(i))), {typ: plumbing.TreeObject, data: append(b, byte(i))}} {
				if o.hash.IsZero() {
					o.hash = objectHash(o.typ, o.data)
				}
				if !seen[o.hash] {
					seen[o.hash] = true
					objs = append(objs, o)
				}
			}
		}
		dir := t.TempDir()
		p, err := writePack(dir, objs)
		if err != nil {
			t.Fatal(err)
		}
		defer p.discard()
		idx := idxfile.NewMemoryIndex()
		fi, err := os.Open(p.tmpIdx)
		if err != nil {
			t.Fatal(err)
		}
		defer fi.Close()
		if err := idxfile.NewDecoder(fi).Decode(idx); err != nil {
			t.Fatalf("go-git cannot read the pack index: %v", err)
		}
		fs := osfs.New(p.dir)
		pf, err := fs.Open(filepath.Base(p.tmpPack))
		if err != nil {
			t.Fatal(err)
		}
		pack := packfile.NewPackfile(idx, fs, pf, 0)
		defer pack.Close()
		for _, o := range objs {
			got, err := pack.Get(o.Hash())
			if err != nil {
				t.Fatalf("object %s: %v", o.Hash(), err)
			}
			data, err := readObjectContent(got)
			if err != nil || got.Type() != o.Type() || !bytes.Equal(data, o.(*rawObject).data) {
				t.Fatalf("object %s reads back as %s, %d bytes (%v)", o.Hash(), got.Type(), len(data), err)
			}
		}
	})
}

// cacheFile is an object cache file of the given objects.
func cacheFile(objs ...cachedObject) []byte {
	b := []byte(objectCacheMagic)
	for i, o := range objs {
		b = append(b, byte(o.typ))
		b = append(b, o.hash[:]...)
		path := strings.Repeat("d/", i)
		b = binary.BigEndian.AppendUint16(b, uint16(len(path)))
		b = append(b, path...)
		b = binary.BigEndian.AppendUint32(b, uint32(len(o.data)))
		b = append(b, o.data...)
	}
	return b
}

// The object cache reader never panics; what it reads, saved and read
// again, is the same cache.
func FuzzObjectCache(f *testing.F) {
	tree := treeBytes("100644 a.md", "40000 b")
	commit := []byte("tree " + objectHash(plumbing.TreeObject, tree).String() + "\nauthor a <a> 1 +0000\n\nm\n")
	f.Add(cacheFile(cachedObject{typ: plumbing.CommitObject, hash: objectHash(plumbing.CommitObject, commit), data: commit},
		cachedObject{typ: plumbing.TreeObject, hash: objectHash(plumbing.TreeObject, tree), data: tree}))
	f.Add([]byte(objectCacheMagic))
	f.Add([]byte("garbage that is not a cache"))
	f.Fuzz(func(t *testing.T, data []byte) {
		file := filepath.Join(t.TempDir(), "objects")
		if err := os.WriteFile(file, data, 0o644); err != nil {
			t.Fatal(err)
		}
		c := loadObjectCache(file)
		for h, o := range c.byHash {
			c.get(o.typ, h)
			c.commitTree(h)
		}
		commit := []byte("tree " + strings.Repeat("0", 40) + "\n")
		ch := objectHash(plumbing.CommitObject, commit)
		c.save(ch, commit)
		back := loadObjectCache(file)
		if len(back.folders) != len(c.folders) {
			t.Fatalf("%d folders, %d after a round trip", len(c.folders), len(back.folders))
		}
		for p, o := range c.folders {
			if b, ok := back.folders[p]; !ok || b.hash != o.hash || !bytes.Equal(b.data, o.data) {
				t.Fatalf("folder %q changed in a round trip", p)
			}
		}
		if got, ok := back.get(plumbing.CommitObject, ch); !ok || !bytes.Equal(got, commit) {
			t.Fatal("the saved commit is not read back")
		}
	})
}
