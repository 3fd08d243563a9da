package storesync

import (
	"bytes"
	"crypto/sha1"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// packedRepo makes a git repository holding one pack of some commits and
// returns its folder and the pack's base path (…/pack-<sum>).
func packedRepo(t *testing.T) (string, string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("needs the git binary")
	}
	dir := t.TempDir()
	git := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	git("init", "-q", "-b", "main")
	// Twenty commits of five files, as one pack (fast-import writes it).
	var in bytes.Buffer
	for i := range 20 {
		fmt.Fprintf(&in, "commit refs/heads/main\ncommitter t <t@example.com> %d +0000\ndata 3\nc%02d\n", 1700000000+i, i)
		body := bytes.Repeat([]byte(fmt.Sprintf("line %d\n", i)), 50)
		fmt.Fprintf(&in, "M 644 inline f%d.txt\ndata %d\n%s\n", i%5, len(body), body)
	}
	cmd := exec.Command("git", "fast-import", "--quiet")
	cmd.Dir, cmd.Stdin = dir, &in
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git fast-import: %v\n%s", err, out)
	}
	git("reset", "-q", "--hard")
	git("repack", "-a", "-d", "-q")
	packs, _ := filepath.Glob(filepath.Join(dir, ".git/objects/pack/pack-*.pack"))
	if len(packs) != 1 {
		t.Fatalf("packs: %v", packs)
	}
	return dir, strings.TrimSuffix(packs[0], ".pack")
}

func fsck(t *testing.T, dir string) {
	t.Helper()
	out, err := exec.Command("git", "-C", dir, "fsck", "--strict", "--no-dangling").CombinedOutput()
	if err != nil || len(bytes.TrimSpace(out)) > 0 {
		t.Errorf("git fsck: %v\n%s", err, out)
	}
}

func exists(p string) bool { _, err := os.Stat(p); return err == nil }

// A 0-byte or truncated index beside its pack (what go-git's writer left
// when a fetch was killed and the next one kept the broken index) is
// rebuilt from the pack; opening the repository repairs it.
func TestRepairRebuildsPartialIndex(t *testing.T) {
	for _, keep := range []int{0, 100, -1} {
		dir, base := packedRepo(t)
		idx, _ := os.ReadFile(base + ".idx")
		os.Chmod(base+".idx", 0o644)
		bad := idx[:max(keep, 0)]
		if keep < 0 { // whole length, last byte of the checksum wrong
			bad = append([]byte(nil), idx...)
			bad[len(bad)-1] ^= 1
		}
		os.WriteFile(base+".idx", bad, 0o644)
		repo, err := OpenRepository(dir)
		if err != nil {
			t.Fatal(err)
		}
		if got, _ := os.ReadFile(base + ".idx"); !bytes.Equal(got, idx) {
			t.Errorf("index cut to %d bytes: not rebuilt as git wrote it (%d bytes, want %d)", keep, len(got), len(idx))
		}
		head, err := repo.Head()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := repo.CommitObject(head.Hash()); err != nil {
			t.Errorf("go-git cannot read the last commit: %v", err)
		}
		fsck(t, dir)
	}
}

// A pack without its index is indexed (git ignores it, go-git fails on
// it); a partial index without a pack is removed; a valid index without
// a pack is left alone.
func TestRepairIndexesPackWithoutIndex(t *testing.T) {
	dir, base := packedRepo(t)
	idx, _ := os.ReadFile(base + ".idx")
	os.Remove(base + ".idx")
	packDir := filepath.Dir(base)
	os.WriteFile(filepath.Join(packDir, "pack-1111111111111111111111111111111111111111.idx"), idx[:300], 0o444)
	os.WriteFile(filepath.Join(packDir, "pack-2222222222222222222222222222222222222222.idx"), idx, 0o444)
	done, err := RepairPacks(packDir)
	if err != nil {
		t.Fatal(err)
	}
	t.Log(strings.Join(done, "\n"))
	if got, _ := os.ReadFile(base + ".idx"); !bytes.Equal(got, idx) {
		t.Errorf("the pack was not indexed as git indexes it")
	}
	if exists(filepath.Join(packDir, "pack-1111111111111111111111111111111111111111.idx")) {
		t.Errorf("a partial index without a pack was kept")
	}
	if !exists(filepath.Join(packDir, "pack-2222222222222222222222222222222222222222.idx")) {
		t.Errorf("a valid index was removed")
	}
	fsck(t, dir)
}

// A pack cut short is moved aside with its index, never deleted; a valid
// pack is never touched.
func TestRepairMovesTruncatedPackAside(t *testing.T) {
	_, base := packedRepo(t)
	pack, _ := os.ReadFile(base + ".pack")
	os.Chmod(base+".pack", 0o644)
	os.WriteFile(base+".pack", pack[:len(pack)/2], 0o644)
	if _, err := RepairPacks(filepath.Dir(base)); err != nil {
		t.Fatal(err)
	}
	if exists(base+".pack") || exists(base+".idx") || !exists(base+".pack.bad") || !exists(base+".idx.bad") {
		t.Errorf("a truncated pack was not moved aside with its index")
	}

	_, base = packedRepo(t)
	before, _ := os.ReadDir(filepath.Dir(base))
	done, err := RepairPacks(filepath.Dir(base))
	after, _ := os.ReadDir(filepath.Dir(base))
	if err != nil || len(done) > 0 || len(before) != len(after) {
		t.Errorf("a sound pack folder was changed: %v %v", done, err)
	}
}

// curator's temporary files of a process that is gone are removed at
// once; anyone else's only when untouched for an hour.
func TestRepairRemovesStaleTemporaryFiles(t *testing.T) {
	_, base := packedRepo(t)
	packDir := filepath.Dir(base)
	dead := exec.Command("true")
	dead.Run()
	files := map[string]bool{ // name → removed
		fmt.Sprintf("tmp_pack_curator-%d-123", dead.Process.Pid): true,
		fmt.Sprintf("tmp_idx_curator-%d-123", dead.Process.Pid):  true,
		fmt.Sprintf("tmp_pack_curator-%d-456", os.Getpid()):      false,
		"tmp_pack_XXfresh": false,
		"tmp_pack_XXold":   true,
	}
	for n := range files {
		os.WriteFile(filepath.Join(packDir, n), []byte("partial"), 0o644)
	}
	old := time.Now().Add(-2 * staleTmp)
	os.Chtimes(filepath.Join(packDir, "tmp_pack_XXold"), old, old)
	if _, err := RepairPacks(packDir); err != nil {
		t.Fatal(err)
	}
	for n, removed := range files {
		if exists(filepath.Join(packDir, n)) == removed {
			t.Errorf("%s: removed %v, want %v", n, !removed, removed)
		}
	}
}

// The fetch's pack writer publishes a whole pack (index and pack in
// place, no temporary file) and drops a stream cut anywhere, leaving
// nothing.
func TestPackWriterPublishesOnlyWholePacks(t *testing.T) {
	_, base := packedRepo(t)
	pack, _ := os.ReadFile(base + ".pack")
	idx, _ := os.ReadFile(base + ".idx")
	for _, cut := range []int{1, 12, len(pack) / 3, len(pack) - 21, len(pack) - 1, len(pack)} {
		dir := t.TempDir()
		w := newTestWriter(t, dir)
		// Written in odd pieces, to exercise the held-back trailer.
		for off := 0; off < cut; {
			n := min(7+off%13, cut-off)
			w.Write(pack[off : off+n])
			off += n
		}
		err := w.Close()
		ents, _ := os.ReadDir(dir)
		var names []string
		for _, e := range ents {
			names = append(names, e.Name())
		}
		if cut < len(pack) {
			if !errors.Is(err, errPartialPack) || len(names) > 0 {
				t.Errorf("cut at %d: err %v, files %v", cut, err, names)
			}
			continue
		}
		name := filepath.Base(base)
		if err != nil || len(names) != 2 || names[0] != name+".idx" || names[1] != name+".pack" {
			t.Fatalf("whole pack: err %v, files %v", err, names)
		}
		if got, _ := os.ReadFile(filepath.Join(dir, name+".idx")); !bytes.Equal(got, idx) {
			t.Errorf("the index differs from git's")
		}
	}
}

func newTestWriter(t *testing.T, dir string) *packWriter {
	f, err := os.CreateTemp(dir, tmpPrefix("pack"))
	if err != nil {
		t.Fatal(err)
	}
	return &packWriter{f: f, dir: dir, h: sha1.New(), published: func() {}}
}
