package history

import (
	"errors"
	"fmt"
	"io"
	"path"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/curator-dev/curator/curate/playbook/bulletid"
	"github.com/curator-dev/curator/mdstore"
	"github.com/curator-dev/curator/mdstore/layout"
)

// ErrNoRecord is returned by RecordLog when no commit on the walk touched a
// record with the id.
var ErrNoRecord = errors.New("no record with this id in the history")

// fileState is a record file at one side of a commit, read when first
// needed.
type fileState struct {
	path string // store-relative
	hash plumbing.Hash
	tree *object.Tree // the folder the diff ran on
	name string       // the file's path in tree
	data []byte
	read bool
}

// bytes is the file's content (nil when it cannot be read).
func (f *fileState) bytes() []byte {
	if !f.read {
		f.read = true
		f.data, _ = blob(f.tree, f.name)
	}
	return f.data
}

// touch is what one commit did to one record file.
type touch struct {
	commit   *object.Commit
	run      Run
	old, new *fileState
	// siblings are the bullets the same commit created, by id, so a merge
	// can name the version it went into.
	siblings map[string]*mdstore.Bullet
	tree     *object.Tree // the commit's tree under the store prefix
}

// RecordLog is the life of one record of the store at dir: every commit
// along first parents from q.Rev (default HEAD) that changed the file
// named <id>.md or <id>.json under memory/ or context/bullets and
// context/archive, in any folder, oldest first. For a bullet, the versions
// of its chain are followed both ways (the ids its merged_from and
// parent_bullet_id name, and the later versions that name it), each event
// naming the id it is about. q.Since, q.Until and q.Limit bound the events.
// It returns ErrNoRecord when no commit touched such a file.
func RecordLog(dir, id string, q Query) ([]Event, error) {
	repo, done, err := openRepo(dir)
	if err != nil {
		return nil, err
	}
	defer done()
	prefix, err := storePrefix(repo, dir)
	if prefix != "" {
		prefix += "/"
	}
	if err != nil {
		return nil, err
	}
	rev := q.Rev
	if rev == "" {
		rev = "HEAD"
	}
	h, err := repo.ResolveRevision(plumbing.Revision(rev))
	if errors.Is(err, plumbing.ErrReferenceNotFound) && q.Rev == "" {
		return nil, fmt.Errorf("%s: %w", id, ErrNoRecord)
	}
	if err != nil {
		return nil, fmt.Errorf("revision %s: %w", rev, err)
	}
	c, err := repo.CommitObject(*h)
	if err != nil {
		return nil, err
	}
	var commits []*object.Commit
	for c != nil {
		commits = append(commits, c)
		if c.NumParents() == 0 {
			break
		}
		if c, err = c.Parent(0); err != nil {
			if errors.Is(err, io.EOF) {
				break
			}
			return nil, err
		}
	}
	w := &walk{prefix: prefix, touches: map[string][]*touch{}, links: map[string][]string{}}
	for i := len(commits) - 1; i >= 0; i-- {
		var parent *object.Commit
		if i+1 < len(commits) {
			parent = commits[i+1]
		}
		if err := w.commit(parent, commits[i]); err != nil {
			return nil, err
		}
	}
	ids := w.chain(id)
	var out []Event
	for _, t := range w.ordered(ids) {
		e := t.event()
		if (!q.Since.IsZero() && e.Time.Before(q.Since)) || (!q.Until.IsZero() && e.Time.After(q.Until)) {
			continue
		}
		out = append(out, e)
	}
	if len(w.touches[id]) == 0 {
		return nil, fmt.Errorf("%s: %w", id, ErrNoRecord)
	}
	if q.Limit > 0 && len(out) > q.Limit {
		out = out[len(out)-q.Limit:]
	}
	return out, nil
}

// walk gathers the record files each commit changed.
type walk struct {
	prefix  string
	touches map[string][]*touch // by record id, oldest first
	// links are a versioned bullet's merged_from and parent_bullet_id.
	links map[string][]string
	seq   map[*touch]int
	n     int
}

// commit records what c changed against parent (nil: the empty tree) under
// the store's memory/ and context/ folders.
func (w *walk) commit(parent, c *object.Commit) error {
	tree, err := c.Tree()
	if err != nil {
		return err
	}
	var ptree *object.Tree
	if parent != nil {
		if ptree, err = parent.Tree(); err != nil {
			return err
		}
	}
	store := tree
	if w.prefix != "" {
		store = folderTree(tree, strings.TrimSuffix(w.prefix, "/"))
	}
	type side struct{ old, new *fileState }
	byID := map[string]*side{}
	var order []string
	for _, folder := range []string{"memory", "context"} {
		from, to := folderTree(ptree, w.prefix+folder), folderTree(tree, w.prefix+folder)
		if from == nil && to == nil {
			continue
		}
		changes, err := object.DiffTree(from, to)
		if err != nil {
			return err
		}
		for _, ch := range changes {
			for i, e := range []object.ChangeEntry{ch.From, ch.To} {
				if e.Name == "" {
					continue
				}
				rel := folder + "/" + e.Name
				id, ok := recordID(rel)
				if !ok {
					continue
				}
				t := to
				if i == 0 {
					t = from
				}
				s := byID[id]
				if s == nil {
					s = &side{}
					byID[id] = s
					order = append(order, id)
				}
				fs := &fileState{path: rel, hash: e.TreeEntry.Hash, tree: t, name: e.Name}
				if i == 0 {
					s.old = fs
				} else {
					s.new = fs
				}
			}
		}
	}
	if len(order) == 0 {
		return nil
	}
	run := ParseMessage(c.Message)
	siblings := map[string]*mdstore.Bullet{}
	for _, id := range order {
		s := byID[id]
		// links are only read from new versions: merges make them
		if _, _, v, ok := bulletid.Parse(id); s.old == nil && s.new != nil && ok && v > 1 && isBulletPath(s.new.path) {
			if b := parseBullet(s.new); b != nil {
				siblings[id] = b
				if links := append(append([]string(nil), b.MergedFrom...), b.ParentBulletID); len(links) > 0 {
					w.links[id] = union(w.links[id], links)
				}
			}
		}
	}
	for _, id := range order {
		s := byID[id]
		if s.old != nil && s.new != nil && s.old.path == s.new.path && s.old.hash == s.new.hash {
			continue
		}
		t := &touch{commit: c, run: run, old: s.old, new: s.new, siblings: siblings, tree: store}
		if w.seq == nil {
			w.seq = map[*touch]int{}
		}
		w.seq[t] = w.n
		w.n++
		w.touches[id] = append(w.touches[id], t)
	}
	return nil
}

// folderTree is the folder p of t, nil when t or the folder is missing.
func folderTree(t *object.Tree, p string) *object.Tree {
	if t == nil {
		return nil
	}
	s, err := t.Tree(p)
	if err != nil {
		return nil
	}
	return s
}

// blob reads the file name of t.
func blob(t *object.Tree, name string) ([]byte, error) {
	f, err := t.File(name)
	if err != nil {
		return nil, err
	}
	r, err := f.Reader()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return io.ReadAll(r)
}

// recordID is the id of a memory or bullet file (store-relative path).
func recordID(rel string) (string, bool) {
	if k := layout.Of(rel).Folder.Kind; k != layout.Memory && k != layout.Bullet {
		return "", false
	}
	base := path.Base(rel)
	for _, ext := range []string{".md", ".json"} {
		if id, ok := strings.CutSuffix(base, ext); ok && id != "" && !strings.HasPrefix(id, ".") {
			return id, true
		}
	}
	return "", false
}

func isBulletPath(rel string) bool {
	return layout.Of(rel).Folder.Kind == layout.Bullet
}

// chain is id with, for a bullet, every version linked to it either way.
func (w *walk) chain(id string) []string {
	seen := map[string]bool{id: true}
	todo := []string{id}
	for len(todo) > 0 {
		cur := todo[0]
		todo = todo[1:]
		next := append([]string(nil), w.links[cur]...)
		for other, links := range w.links {
			for _, l := range links {
				if l == cur {
					next = append(next, other)
				}
			}
		}
		for _, n := range next {
			if n != "" && !seen[n] && len(w.touches[n]) > 0 {
				seen[n] = true
				todo = append(todo, n)
			}
		}
	}
	out := make([]string, 0, len(seen))
	for k := range seen {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// ordered are the touches of ids, oldest first (within a commit, in the
// order of the diff).
func (w *walk) ordered(ids []string) []*touch {
	var out []*touch
	for _, id := range ids {
		out = append(out, w.touches[id]...)
	}
	sort.SliceStable(out, func(i, j int) bool { return w.seq[out[i]] < w.seq[out[j]] })
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func union(a, b []string) []string {
	for _, x := range b {
		if x != "" && !contains(a, x) {
			a = append(a, x)
		}
	}
	return a
}
