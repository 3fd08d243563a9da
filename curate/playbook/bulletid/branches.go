package bulletid

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/curator-dev/curator/internal/durable"
	"github.com/curator-dev/curator/internal/gitcommit"
	"github.com/curator-dev/curator/mdstore"
	"github.com/curator-dev/curator/mdstore/layout"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// idsAtTips lists the bullet file names at the tip of every branch and
// remote-tracking branch. A store outside git has none. The names of each
// category's folder tree are kept by tree hash in .cache/ref-bullet-ids, so
// a tree that did not change is not read again.
func idsAtTips(s *mdstore.Store) ([]string, error) {
	r, err := s.OpenRepo()
	if err != nil {
		return nil, nil //nolint:nilerr // no repository: nothing to add
	}
	tips, headCommit, err := r.TipTrees()
	if err != nil {
		return nil, err
	}
	cache := readRefIDs(s)
	// HEAD's category trees are noted for the run's commit (noteCommit).
	head := &headFolders{cache: cache, head: headCommit, folders: map[string]plumbing.Hash{}}
	seen := map[plumbing.Hash]bool{}
	var ids []string
	for _, tip := range tips {
		for _, root := range bulletFolders {
			sub, err := tip.Tree.Tree(r.Prefix() + root)
			if err != nil {
				continue
			}
			if tip.Head {
				for _, e := range sub.Entries {
					if !e.Mode.IsFile() {
						head.folders[root+"/"+e.Name] = e.Hash
					}
				}
			}
			for _, e := range sub.Entries {
				if e.Mode.IsFile() {
					if strings.HasSuffix(e.Name, ".md") {
						ids = append(ids, strings.TrimSuffix(e.Name, ".md"))
					}
					continue
				}
				if seen[e.Hash] {
					continue
				}
				seen[e.Hash] = true
				ids = append(ids, cache.names(r, e.Hash)...)
			}
		}
	}
	if cache.dirty {
		s.QueueCache(refIDsPath, func() { cache.save(s) })
	}
	if !head.head.IsZero() {
		s.Hooks.Committed = func(c *mdstore.Changeset, commit string) {
			s.Hooks.Committed = nil
			noteCommit(s, head, c, commit)
		}
	}
	return ids, nil
}

// refIDsPath caches the bullet names of category folder trees by hash.
const refIDsPath = ".cache/ref-bullet-ids"

// refIDs is that cache: per tree hash, its bullet names.
type refIDs struct {
	lines map[plumbing.Hash]string // hash -> names, space separated
	used  map[plumbing.Hash]bool
	dirty bool
}

func readRefIDs(s *mdstore.Store) *refIDs {
	c := &refIDs{lines: map[plumbing.Hash]string{}, used: map[plumbing.Hash]bool{}}
	data, err := os.ReadFile(filepath.Join(s.Dir, refIDsPath))
	if err != nil {
		return c
	}
	for _, line := range strings.Split(string(data), "\n") {
		h, names, ok := strings.Cut(line, " ")
		if ok && len(h) == 40 {
			c.lines[plumbing.NewHash(h)] = names
		}
	}
	return c
}

// names lists the bullet names (without .md) under a category tree.
func (c *refIDs) names(r *gitcommit.Repo, h plumbing.Hash) []string {
	c.used[h] = true
	if line, ok := c.lines[h]; ok {
		return strings.Fields(line)
	}
	var ids []string
	if t, err := object.GetTree(r.Objects(), h); err == nil {
		w := object.NewTreeWalker(t, true, nil)
		for {
			name, e, err := w.Next()
			if err != nil {
				break
			}
			if e.Mode.IsFile() && strings.HasSuffix(name, ".md") {
				ids = append(ids, strings.TrimSuffix(name[strings.LastIndex(name, "/")+1:], ".md"))
			}
		}
		w.Close()
	}
	c.lines[h] = strings.Join(ids, " ")
	c.dirty = true
	return ids
}

// save keeps the trees this run looked at (best effort).
func (c *refIDs) save(s *mdstore.Store) {
	n := 0
	for h := range c.used {
		n += 2*len(h) + 2 + len(c.lines[h])
	}
	b := make([]byte, 0, n) // made once: about a megabyte at 100,000 bullets
	for h := range c.used {
		b = append(b, h.String()...)
		b = append(b, ' ')
		b = append(b, c.lines[h]...)
		b = append(b, '\n')
	}
	_ = durable.WriteFile(filepath.Join(s.Dir, refIDsPath), b, 0o644, false)
}

// bulletFolders are the folders of the active and the archived bullets.
var bulletFolders = func() []string {
	var out []string
	for _, f := range layout.Folders {
		if f.Kind == layout.Bullet && f.Status != "" {
			out = append(out, f.Dir)
		}
	}
	return out
}()
