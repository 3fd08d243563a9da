package gittree

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// history makes a repository with git itself: commits that edit, add and
// remove files in nested folders, turn a file into a folder, and change
// modes, large enough files for git to store deltas.
func history(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	gitRun(t, dir, "init", "-q")
	write := func(name, text string) {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	long := strings.Repeat("a line of a memory that git can store as a delta\n", 200)
	for i := 0; i < 12; i++ {
		for j := 0; j < 30; j++ {
			write(fmt.Sprintf("store/memory/inbox/m-%03d.md", j+i*3), fmt.Sprintf("---\nid: m-%03d\nround: %d\n---\n%s", j, i, long))
		}
		if i < 5 || i > 7 {
			write(fmt.Sprintf("store/memory/confirmed/fact/f-%02d.md", i), long+fmt.Sprint(i))
		}
		switch i {
		case 3:
			gitRun(t, dir, "rm", "-q", "store/memory/inbox/m-001.md")
		case 5:
			if err := os.RemoveAll(filepath.Join(dir, "store/memory/confirmed")); err != nil {
				t.Fatal(err)
			}
			write("store/memory/confirmed", "now a file\n")
		case 7:
			if err := os.Remove(filepath.Join(dir, "store/memory/confirmed")); err != nil {
				t.Fatal(err)
			}
			write("store/memory/confirmed/fact/f-00.md", "a folder again\n")
		case 9:
			gitRun(t, dir, "add", "-A")
			gitRun(t, dir, "update-index", "--chmod=+x", "store/memory/inbox/m-010.md")
		}
		gitRun(t, dir, "add", "-A")
		gitRun(t, dir, "commit", "-q", "-m", fmt.Sprintf("run %d\n\nCurator-Run: r-%d\n", i, i))
	}
	return dir
}

func gitRun(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@localhost", "-c", "gc.auto=0"}, args...)...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// TestObjectsReadAsGoGit reads every object of a repository whose
// objects are loose, packed with offset deltas, and packed with deltas
// named by hash, and compares each with go-git's reading; then every
// commit's tree diff with Diff's over go-git's trees.
func TestObjectsReadAsGoGit(t *testing.T) {
	for _, layout := range []struct {
		name string
		pack string // how git packs the objects ("" not at all)
	}{
		{"loose", ""},
		{"offset deltas", "git rev-list --objects --all | git pack-objects -q --delta-base-offset --window=50 --depth=50 .git/objects/pack/pack >/dev/null && git prune-packed"},
		// without --delta-base-offset each base is named by its hash
		{"hash deltas", "git rev-list --objects --all | git pack-objects -q --window=50 --depth=50 .git/objects/pack/pack >/dev/null && git prune-packed"},
		{"half packed", "git rev-list --objects --all | git pack-objects -q --window=50 --depth=50 .git/objects/pack/pack >/dev/null && git prune-packed" +
			" && echo x >> store/memory/inbox/m-002.md && git -c user.name=t -c user.email=t@localhost commit -q -a -m loose"},
	} {
		t.Run(layout.name, func(t *testing.T) {
			dir := history(t)
			if layout.pack != "" {
				sh := exec.Command("sh", "-c", layout.pack)
				sh.Dir = dir
				if out, err := sh.CombinedOutput(); err != nil {
					t.Fatalf("%v\n%s", err, out)
				}
			}
			if layout.name != "loose" {
				if out := gitRun(t, dir, "verify-pack", "-v", packOf(t, dir)); !strings.Contains(out, "chain length") {
					t.Fatalf("the pack holds no deltas:\n%s", out)
				}
			}
			repo, err := git.PlainOpen(dir)
			if err != nil {
				t.Fatal(err)
			}
			objs := OpenObjects(filepath.Join(dir, ".git"), nil) // no fallback: every object read here
			defer objs.Close()
			if layout.name == "hash deltas" { // read as where packs are not mapped
				for _, p := range objs.packs {
					unmapFile(p.data)
					p.data = nil
				}
			}
			all := gitRun(t, dir, "cat-file", "--batch-all-objects", "--batch-check=%(objectname)")
			for _, name := range strings.Fields(all) {
				h := plumbing.NewHash(name)
				want, err := repo.Storer.EncodedObject(plumbing.AnyObject, h)
				if err != nil {
					t.Fatal(err)
				}
				r, _ := want.Reader()
				wb, _ := io.ReadAll(r)
				r.Close()
				typ, b, err := objs.Read(h)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				if typ != want.Type() || !bytes.Equal(b, wb) {
					t.Fatalf("%s: read a %s of %d bytes, go-git a %s of %d", name, typ, len(b), want.Type(), len(wb))
				}
			}
			commits, _ := repo.Log(&git.LogOptions{})
			err = commits.ForEach(func(c *object.Commit) error {
				nw, _ := c.Tree()
				var old *object.Tree
				oldHash := plumbing.ZeroHash
				if c.NumParents() > 0 {
					p, _ := c.Parent(0)
					old, _ = p.Tree()
					oldHash = old.Hash
				}
				var want, got []Change
				if err := Diff(old, nw, func(ch Change) error { want = append(want, ch); return nil }); err != nil {
					return err
				}
				if err := DiffTrees(objs, oldHash, nw.Hash, func(ch Change) error { got = append(got, ch); return nil }); err != nil {
					return err
				}
				if fmt.Sprint(got) != fmt.Sprint(want) {
					t.Errorf("commit %s %q: DiffTrees\n%v\nDiff\n%v", c.Hash, c.Message, got, want)
				}
				sub, err := Lookup(objs, nw.Hash, "store/memory")
				if wantSub, _ := nw.Tree("store/memory"); err != nil || wantSub == nil || sub != wantSub.Hash {
					t.Errorf("Lookup store/memory: %v %v", sub, err)
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
		})
	}
}

func packOf(t *testing.T, dir string) string {
	t.Helper()
	idx, _ := filepath.Glob(filepath.Join(dir, ".git", "objects", "pack", "*.idx"))
	if len(idx) != 1 {
		t.Fatalf("packs: %v", idx)
	}
	return idx[0]
}

// TestObjectsReadAfterGC: objects listed while they were loose are read
// after a git gc packed them into a pack written since and removed them
// (a gc that runs beside a sync), not "object not found".
func TestObjectsReadAfterGC(t *testing.T) {
	dir := t.TempDir()
	gitRun(t, dir, "init", "-q")
	os.WriteFile(filepath.Join(dir, "a.md"), []byte("a memory\n"), 0o644)
	gitRun(t, dir, "add", "-A")
	gitRun(t, dir, "commit", "-q", "-m", "one")
	blob := plumbing.NewHash(strings.TrimSpace(gitRun(t, dir, "rev-parse", "HEAD:a.md")))
	o := OpenObjects(filepath.Join(dir, ".git"), nil) // no pack yet: every object loose
	defer o.Close()
	gitRun(t, dir, "gc", "-q", "--prune=now")
	if _, err := os.Stat(filepath.Join(dir, ".git/objects", blob.String()[:2], blob.String()[2:])); !os.IsNotExist(err) {
		t.Fatalf("the blob is still loose after git gc: %v", err)
	}
	b, err := o.ReadType(blob, plumbing.BlobObject)
	if err != nil || string(b) != "a memory\n" {
		t.Errorf("after git gc: %q, %v", b, err)
	}
}
