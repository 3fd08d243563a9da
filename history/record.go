package history

import (
	"errors"
	"fmt"
	"io"
	"path"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/curator-dev/curator/frontmatter"
	"github.com/curator-dev/curator/mdstore"
)

// ErrNoRecord is returned by RecordLog when no commit on the walk touched a
// record with the id.
var ErrNoRecord = errors.New("no record with this id in the history")

// Event is one thing that happened to a record in one commit.
type Event struct {
	Commit string    `json:"commit"`
	Time   time.Time `json:"time"`
	// RunID is the commit's Curator-Run trailer, "" for a hand edit.
	RunID string `json:"run_id"`
	// ByHand is true for a commit without a Curator-Run trailer.
	ByHand bool `json:"by_hand"`
	// ID is the record the event is about (for a bullet, one id of its
	// version chain); Record is "memory" or "bullet".
	ID     string `json:"id"`
	Record string `json:"record"`
	// What is one of the Event* kinds.
	What string `json:"what"`
	// Path is the store-relative file after the commit ("" when removed),
	// From the one before it ("" when created).
	Path string `json:"path,omitempty"`
	From string `json:"from,omitempty"`
	// SourceReflections and Agent tell where a created bullet came from
	// (Agent is the agent of the reflection its run curated, the last of
	// SourceReflections, when recorded).
	SourceReflections []string `json:"source_reflections,omitempty"`
	Agent             string   `json:"agent,omitempty"`
	// HelpfulDelta is the helpful_count increase of a reinforcement.
	HelpfulDelta int `json:"helpful_delta,omitempty"`
	// MergedInto is the new version a merged bullet went into; MergedFrom
	// the merged_from of that version (of this bullet, when created by a
	// merge).
	MergedInto string   `json:"merged_into,omitempty"`
	MergedFrom []string `json:"merged_from,omitempty"`
	// Channel is the promotion channel a run's decision line names.
	Channel string `json:"channel,omitempty"`
	// Reason is a trashed memory's trashed.reason.
	Reason string `json:"reason,omitempty"`
	// Keys are the frontmatter keys that changed ("body" for the text).
	Keys []string `json:"keys,omitempty"`
	// Summary is the event in words, as `curator log ID` prints it.
	Summary string `json:"summary"`
}

// What happened to a record.
const (
	EventCreated    = "created"    // a bullet written
	EventReinforced = "reinforced" // helpful_count went up
	EventMerged     = "merged"     // archived into a new version
	EventArchived   = "archived"
	EventRestored   = "restored" // back from the archive or the trash
	EventEdited     = "edited"
	EventIngested   = "ingested" // a memory added
	EventPromoted   = "promoted"
	EventTrashed    = "trashed"
	EventMoved      = "moved"   // another move between folders
	EventRemoved    = "removed" // the file deleted outright
)

// fileState is a record file at one side of a commit.
type fileState struct {
	path string // store-relative
	data []byte
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
	repo, err := git.PlainOpenWithOptions(dir, &git.PlainOpenOptions{DetectDotGit: true, EnableDotGitCommonDir: true})
	if err != nil {
		return nil, fmt.Errorf("opening the git repository of %s: %w", dir, err)
	}
	prefix, err := storePrefix(repo, dir)
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

// storePrefix is the store folder's path in the repository ("" when the
// store is the work tree's root, else ending in "/").
func storePrefix(repo *git.Repository, dir string) (string, error) {
	wt, err := repo.Worktree()
	if err != nil {
		return "", fmt.Errorf("the work tree of %s: %w", dir, err)
	}
	root, err := filepath.EvalSymlinks(wt.Filesystem.Root())
	if err != nil {
		return "", err
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	if d, err := filepath.EvalSymlinks(abs); err == nil {
		abs = d
	}
	rel, err := filepath.Rel(root, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("the store %s is outside its repository's work tree %s", dir, root)
	}
	if rel == "." {
		return "", nil
	}
	return filepath.ToSlash(rel) + "/", nil
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
		store = subtree(tree, strings.TrimSuffix(w.prefix, "/"))
	}
	type side struct{ old, new *fileState }
	byID := map[string]*side{}
	var order []string
	for _, folder := range []string{"memory", "context"} {
		from, to := subtree(ptree, w.prefix+folder), subtree(tree, w.prefix+folder)
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
				var t *object.Tree
				if i == 0 {
					t = from
				} else {
					t = to
				}
				data, err := blob(t, e.Name)
				if err != nil {
					return err
				}
				s := byID[id]
				if s == nil {
					s = &side{}
					byID[id] = s
					order = append(order, id)
				}
				fs := &fileState{path: rel, data: data}
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
		if s.new != nil && isBulletPath(s.new.path) {
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
		if s.old != nil && s.new != nil && s.old.path == s.new.path && string(s.old.data) == string(s.new.data) {
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

// subtree is the folder p of t, nil when t or the folder is missing.
func subtree(t *object.Tree, p string) *object.Tree {
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
	if !strings.HasPrefix(rel, "memory/") && !isBulletPath(rel) {
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
	return strings.HasPrefix(rel, "context/bullets/") || strings.HasPrefix(rel, "context/archive/")
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

// event classifies a touch.
func (t *touch) event() Event {
	e := Event{Commit: t.commit.Hash.String(), Time: t.commit.Committer.When.UTC(), RunID: t.run.RunID, ByHand: t.run.RunID == ""}
	var p string
	if t.new != nil {
		e.Path, p = t.new.path, t.new.path
	}
	if t.old != nil {
		e.From = t.old.path
		if p == "" {
			p = t.old.path
		}
	}
	if e.Path == e.From {
		e.From = ""
	}
	e.ID, _ = recordID(p)
	if isBulletPath(p) {
		e.Record = "bullet"
		t.bulletEvent(&e)
	} else {
		e.Record = "memory"
		t.memoryEvent(&e)
	}
	if e.ByHand {
		e.Summary += " by hand"
	}
	return e
}

func (t *touch) bulletEvent(e *Event) {
	switch {
	case t.old == nil:
		e.What = EventCreated
		b := parseBullet(t.new)
		if b == nil {
			e.Summary = "created (unreadable)"
			return
		}
		e.SourceReflections = b.SourceReflections
		e.MergedFrom = b.MergedFrom
		e.Summary = "created"
		if len(b.MergedFrom) > 0 {
			e.Summary += " by merging " + strings.Join(b.MergedFrom, " + ")
		}
		if n := len(b.SourceReflections); n > 0 {
			// the reflection of the run that wrote it comes last (a merged
			// version lists its parents' reflections first)
			last := b.SourceReflections[n-1]
			e.Agent = t.agentOf(last)
			if len(b.MergedFrom) > 0 {
				e.Summary += " with " + last
			} else {
				e.Summary += " from " + strings.Join(b.SourceReflections, ", ")
			}
			if e.Agent != "" {
				e.Summary += " (agent " + e.Agent + ")"
			}
		}
		if strings.HasPrefix(t.new.path, "context/archive/") {
			e.Summary += " in the archive"
		}
	case t.new == nil:
		e.What, e.Summary = EventRemoved, "removed (the file was deleted)"
	case folderOf(t.old.path) != folderOf(t.new.path) && strings.HasPrefix(t.new.path, "context/archive/"):
		e.What, e.Summary = EventArchived, "archived"
		for id, b := range t.siblings {
			if contains(b.MergedFrom, e.ID) || b.ParentBulletID == e.ID {
				e.What, e.MergedInto, e.MergedFrom = EventMerged, id, b.MergedFrom
				e.Summary = "merged into " + id + " (merged_from " + strings.Join(b.MergedFrom, ", ") + ")"
				break
			}
		}
	case folderOf(t.old.path) != folderOf(t.new.path) && strings.HasPrefix(t.new.path, "context/bullets/"):
		e.What, e.Summary = EventRestored, "restored"
	default:
		e.Keys = changedKeys(t.old.data, t.new.data)
		if e.From != "" {
			e.Keys = append(e.Keys, "path")
		}
		ob, nb := parseBullet(t.old), parseBullet(t.new)
		if ob != nil && nb != nil && nb.HelpfulCount > ob.HelpfulCount && !e.ByHand {
			e.What, e.HelpfulDelta = EventReinforced, nb.HelpfulCount-ob.HelpfulCount
			e.Summary = fmt.Sprintf("reinforced (helpful +%d)", e.HelpfulDelta)
			return
		}
		e.What, e.Summary = EventEdited, "edited ("+strings.Join(e.Keys, ", ")+")"
	}
}

func (t *touch) memoryEvent(e *Event) {
	switch {
	case t.old == nil:
		e.What, e.Summary = EventIngested, "ingested into "+memoryStatus(t.new.path)
	case t.new == nil:
		e.What, e.Summary = EventRemoved, "removed (the file was deleted)"
	case memoryStatus(t.old.path) != memoryStatus(t.new.path):
		from, to := memoryStatus(t.old.path), memoryStatus(t.new.path)
		switch {
		case to == "trash":
			e.What, e.Summary = EventTrashed, "trashed"
			if m, err := mdstore.ParseMemory(t.new.path, t.new.data); err == nil {
				if r, ok := m.Trashed["reason"].(string); ok {
					e.Reason = r
					e.Summary += ": " + r
				}
			}
		case from == "trash":
			e.What, e.Summary = EventRestored, "restored to "+to
		case from == "inbox" && to == "confirmed":
			e.What, e.Summary = EventPromoted, "promoted to "+strings.TrimPrefix(path.Dir(t.new.path), "memory/")
			e.Channel = channelOf(t.commit.Message, e.ID)
			if e.Channel != "" {
				e.Summary += " (channel " + e.Channel + ")"
			}
		default:
			e.What, e.Summary = EventMoved, "moved from "+from+" to "+to
		}
	default:
		e.Keys = changedKeys(t.old.data, t.new.data)
		if e.From != "" {
			e.Keys = append(e.Keys, "path")
		}
		e.What, e.Summary = EventEdited, "edited ("+strings.Join(e.Keys, ", ")+")"
	}
}

// memoryStatus is the status a memory's folder gives it.
func memoryStatus(rel string) string {
	parts := strings.Split(rel, "/")
	if len(parts) >= 3 {
		return parts[1]
	}
	return ""
}

// folderOf is bullets or archive.
func folderOf(rel string) string {
	parts := strings.Split(rel, "/")
	if len(parts) >= 2 {
		return parts[1]
	}
	return ""
}

// channelOf reads the channel of "promote <id> to … (channel X, …)" in a
// run's decision lines.
func channelOf(msg, id string) string {
	for _, l := range strings.Split(msg, "\n") {
		rest, ok := strings.CutPrefix(strings.TrimSpace(l), "promote "+id+" ")
		if !ok {
			continue
		}
		_, ch, ok := strings.Cut(rest, "(channel ")
		if !ok {
			continue
		}
		ch, _, _ = strings.Cut(ch, ",")
		return strings.TrimSuffix(strings.TrimSpace(ch), ")")
	}
	return ""
}

// agentOf is the agent of reflection id as the commit's tree holds it.
func (t *touch) agentOf(id string) string {
	if t.tree == nil {
		return ""
	}
	for _, status := range []string{"merged", "pending"} {
		for _, ext := range []string{".md", ".json"} {
			rel := "context/reflections/" + status + "/" + id + ext
			data, err := blob(t.tree, rel)
			if err != nil {
				continue
			}
			if r, err := mdstore.ParseReflection(rel, data); err == nil && r.Agent != "" {
				return r.Agent
			}
		}
	}
	return ""
}

// parseBullet decodes a bullet file, nil when it does not parse.
func parseBullet(f *fileState) *mdstore.Bullet {
	if f == nil {
		return nil
	}
	d, err := frontmatter.Parse(f.data)
	if err != nil {
		return nil
	}
	b, err := mdstore.DecodeBullet(f.path, d)
	if err != nil {
		return nil
	}
	return b
}

// changedKeys are the frontmatter keys whose values differ, in order, and
// "body" when the text changed; both sides unreadable compare as "file".
func changedKeys(old, new []byte) []string {
	od, err1 := frontmatter.Parse(old)
	nd, err2 := frontmatter.Parse(new)
	if err1 != nil || err2 != nil {
		return []string{"file"}
	}
	var om, nm map[string]any
	if od.Decode(&om) != nil || nd.Decode(&nm) != nil {
		return []string{"file"}
	}
	var keys []string
	seen := map[string]bool{}
	for _, k := range append(od.Keys(), nd.Keys()...) {
		if seen[k] {
			continue
		}
		seen[k] = true
		if !reflect.DeepEqual(om[k], nm[k]) {
			keys = append(keys, k)
		}
	}
	if strings.TrimSpace(string(od.Body())) != strings.TrimSpace(string(nd.Body())) {
		keys = append(keys, "body")
	}
	return keys
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
