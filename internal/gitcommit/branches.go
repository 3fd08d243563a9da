package gitcommit

import (
	"bufio"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// Branches returns the tips of every branch and remote-tracking branch,
// read as git reads them: each loose ref under refs/heads and refs/remotes
// of the common git folder, else its packed-refs line. A ref's lock file
// (NAME.lock, which git creates while it changes the ref, and which a
// crashed git may leave behind) is not a ref, and an empty or unreadable
// loose file falls back to the packed value, so a git command running
// beside curator never makes the listing fail. Symbolic refs
// (refs/remotes/origin/HEAD) are left out.
func (r *Repo) Branches() ([]plumbing.Hash, error) {
	tips := map[string]plumbing.Hash{}
	for _, root := range []string{"refs/heads", "refs/remotes"} {
		dir := filepath.Join(r.commonDir, filepath.FromSlash(root))
		err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				if errors.Is(err, os.ErrNotExist) {
					return nil
				}
				return err
			}
			if d.IsDir() || strings.HasSuffix(d.Name(), ".lock") {
				return nil
			}
			rel, err := filepath.Rel(r.commonDir, p)
			if err != nil {
				return nil //nolint:nilerr // not under the git folder: not a ref
			}
			name := filepath.ToSlash(rel)
			b, err := os.ReadFile(p)
			v := strings.TrimSpace(string(b))
			switch {
			case err == nil && plumbing.IsHash(v):
				tips[name] = plumbing.NewHash(v)
			case err == nil && strings.HasPrefix(v, "ref:"):
				tips[name] = plumbing.ZeroHash // symbolic: listed nowhere
			}
			// An empty or unreadable file: its packed value, if any, below.
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	packed, err := r.packedRefs()
	if err != nil {
		return nil, err
	}
	for name, h := range packed {
		if _, loose := tips[name]; !loose && (strings.HasPrefix(name, "refs/heads/") || strings.HasPrefix(name, "refs/remotes/")) {
			tips[name] = h
		}
	}
	var out []plumbing.Hash
	for _, h := range tips {
		if !h.IsZero() {
			out = append(out, h)
		}
	}
	return out, nil
}

// packedRefs reads every line of packed-refs (none when there is no file).
func (r *Repo) packedRefs() (map[string]plumbing.Hash, error) {
	out := map[string]plumbing.Hash{}
	f, err := os.Open(filepath.Join(r.commonDir, "packed-refs"))
	if errors.Is(err, os.ErrNotExist) {
		return out, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if len(line) < 42 || line[0] == '#' || line[0] == '^' || line[40] != ' ' || !plumbing.IsHash(line[:40]) {
			continue
		}
		out[line[41:]] = plumbing.NewHash(line[:40])
	}
	return out, sc.Err()
}

// HeadCommit is the commit HEAD names (through its branch); the zero hash
// on a branch without commits.
func (r *Repo) HeadCommit() (plumbing.Hash, error) {
	b, err := os.ReadFile(filepath.Join(r.gitDir, "HEAD"))
	if err != nil {
		return plumbing.ZeroHash, err
	}
	v := strings.TrimSpace(string(b))
	if target, ok := strings.CutPrefix(v, "ref:"); ok {
		return r.readRef(strings.TrimSpace(target))
	}
	if !plumbing.IsHash(v) {
		return plumbing.ZeroHash, errors.New("HEAD holds no commit id")
	}
	return plumbing.NewHash(v), nil
}

// TipTree is the root tree of a branch tip's commit.
type TipTree struct {
	Tree *object.Tree
	// Head means the tree is that of HEAD's commit.
	Head bool
}

// TipTrees returns the root trees at the tips of every branch and
// remote-tracking branch (Branches), each tree once, and HEAD's commit
// (the zero hash on a branch without commits). A tip that is not a
// commit is left out.
func (r *Repo) TipTrees() ([]TipTree, plumbing.Hash, error) {
	tips, err := r.Branches()
	if err != nil {
		return nil, plumbing.ZeroHash, err
	}
	var head, headTree plumbing.Hash
	if h, err := r.HeadCommit(); err == nil && !h.IsZero() {
		if c, err := object.GetCommit(r.st, h); err == nil {
			head, headTree = h, c.TreeHash
		}
	}
	seen := map[plumbing.Hash]bool{}
	var out []TipTree
	for _, tip := range tips {
		c, err := object.GetCommit(r.st, tip)
		if err != nil || seen[c.TreeHash] {
			continue // not a commit: nothing to list
		}
		seen[c.TreeHash] = true
		tree, err := c.Tree()
		if err != nil {
			continue
		}
		out = append(out, TipTree{Tree: tree, Head: c.TreeHash == headTree})
	}
	return out, head, nil
}
