package bulletid

import (
	"slices"
	"strings"

	"github.com/curator-dev/curator/mdstore"
	"github.com/curator-dev/curator/mdstore/layout"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// headFolders is what the listing of the branches' bullet names saw of
// HEAD's commit: the tree of each category folder, whose names the cache
// holds. A commit of the run then gives the cache the names of the trees
// it made (the parent's names, less the files it removed, plus the files
// it wrote), so the next run does not read those trees from git again.
type headFolders struct {
	cache   *refIDs
	head    plumbing.Hash            // HEAD's commit when listed
	folders map[string]plumbing.Hash // store-relative category folder -> tree
}

// noteCommit gives the cache of branch names the category trees of the
// commit a run just made on top of the HEAD it listed (nothing for a merge,
// or when HEAD had moved in between).
func noteCommit(s *mdstore.Store, h *headFolders, c *mdstore.Changeset, commit string) {
	if commit == "" {
		return
	}
	r, err := s.OpenRepo()
	if err != nil {
		return
	}
	co, err := object.GetCommit(r.Objects(), plumbing.NewHash(commit))
	if err != nil || len(co.ParentHashes) != 1 || co.ParentHashes[0] != h.head {
		return
	}
	type change struct{ added, removed []string }
	changed := map[string]*change{}
	note := func(rel string, removed bool) bool {
		dir, name, ok := categoryFile(rel)
		if !ok {
			return layout.Of(rel).Folder.Kind != layout.Bullet
		}
		ch := changed[dir]
		if ch == nil {
			ch = &change{}
			changed[dir] = ch
		}
		if removed {
			ch.removed = append(ch.removed, name)
		} else {
			ch.added = append(ch.added, name)
		}
		return true
	}
	for _, ch := range c.Changes {
		if ch.Root {
			continue
		}
		if !note(ch.Path, ch.Delete) || ch.From != "" && !note(ch.From, true) {
			return // a file deeper in a category folder: not derived
		}
	}
	tree, err := co.Tree()
	if err != nil {
		return
	}
	noted := false
	for dir, ch := range changed {
		var names []string
		if old, had := h.folders[dir]; had {
			line, ok := h.cache.lines[old]
			if !ok {
				continue
			}
			names = strings.Fields(line)
		}
		names = slices.DeleteFunc(names, func(n string) bool { return slices.Contains(ch.removed, n) })
		for _, n := range ch.added {
			if !slices.Contains(names, n) {
				names = append(names, n)
			}
		}
		root, cat := dir[:strings.LastIndexByte(dir, '/')], dir[strings.LastIndexByte(dir, '/')+1:]
		parent, err := tree.Tree(r.Prefix() + root)
		if err != nil {
			continue
		}
		for _, e := range parent.Entries {
			if e.Name == cat && !e.Mode.IsFile() {
				slices.Sort(names)
				h.cache.lines[e.Hash] = strings.Join(names, " ")
				h.cache.used[e.Hash] = true
				noted = true
			}
		}
	}
	if noted {
		s.QueueCache(refIDsPath, func() { h.cache.save(s) })
	}
}

// categoryFile splits a bullet file's store-relative path into its
// category folder and bullet name; false for any other path (or a file
// deeper in a category folder).
func categoryFile(rel string) (dir, name string, ok bool) {
	p := layout.Of(rel)
	if !p.Exact() || layout.KindOf(rel) != layout.Bullet {
		return "", "", false
	}
	return p.Dir(), strings.TrimSuffix(p.Rest, ".md"), true
}
