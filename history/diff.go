package history

import (
	"fmt"
	"reflect"
	"sort"
	"strings"

	"github.com/curator-dev/curator/internal/parallel"
	"github.com/curator-dev/curator/internal/secrets"
)

// File is one store-relative path in two states: Old and New are its bytes
// before and after (nil: absent).
type File struct {
	Path     string
	Old, New []byte
}

// Change kinds. A record moved and edited in one step is one change: the
// move's kind with the changed keys.
const (
	Added      = "added"
	Removed    = "removed"
	Edited     = "edited"
	Moved      = "moved"
	Promoted   = "promoted"
	Trashed    = "trashed"
	Restored   = "restored"
	Reinforced = "reinforced"
	Counters   = "counters"
	Merged     = "merged"
	Archived   = "archived"
	Curated    = "curated"
	State      = "state"
	Written    = "written"
	Invalid    = "invalid"
)

// ChangeKinds are the kinds in the order reviews list them.
var ChangeKinds = []string{Invalid, Promoted, Trashed, Restored, Added, Merged, Reinforced, Counters, Edited, Moved, Archived, Curated, State, Written, Removed}

// KeyChange is one frontmatter (or JSON) key's value before and after (nil:
// absent).
type KeyChange struct {
	Old any `json:"old"`
	New any `json:"new"`
}

// Change is what happened to one record between two states.
type Change struct {
	Kind   string `json:"kind"`
	Record string `json:"record"`
	ID     string `json:"id"`
	// Path is the record's file after the change (before it, when removed).
	Path string `json:"path"`
	// From and To are the folders of a moved record (inbox → confirmed/fact).
	From string `json:"from,omitempty"`
	To   string `json:"to,omitempty"`
	// Keys are the keys whose values changed.
	Keys map[string]KeyChange `json:"keys,omitempty"`
	// Body is true when the body text changed; BodyDiff shows how, word by
	// word ([-removed-] {+added+}), for bullets and memories.
	Body     bool   `json:"body_changed,omitempty"`
	BodyDiff string `json:"body_diff,omitempty"`
	// Reason is a trashed memory's trashed.reason.
	Reason string `json:"reason,omitempty"`
	// Parents are a merged bullet's merged_from and parent_bullet_id.
	Parents []string `json:"parents,omitempty"`
	// Sentences are the sentences of a merged bullet's body that none of
	// its parents had.
	Sentences []string `json:"added_sentences,omitempty"`
	// Line and Error say where and why an invalid file does not parse;
	// Side is "old" or "new".
	Line  int    `json:"line,omitempty"`
	Error string `json:"error,omitempty"`
	Side  string `json:"side,omitempty"`
}

// Warning is something a reviewer must look at.
type Warning struct {
	// Kind is removed, counter-down, lost-sentence, secret, invalid or
	// id-reused.
	Kind    string `json:"kind"`
	Record  string `json:"record"`
	ID      string `json:"id"`
	Path    string `json:"path"`
	Message string `json:"message"`
}

// Warning kinds.
const (
	WarnRemoved      = "removed"
	WarnCounterDown  = "counter-down"
	WarnLostSentence = "lost-sentence"
	WarnSecret       = "secret"
	WarnInvalid      = "invalid"
	WarnIDReused     = "id-reused"
)

// Result is the record changes between two states.
type Result struct {
	Changes  []Change       `json:"changes"`
	Warnings []Warning      `json:"warnings"`
	Counts   map[string]int `json:"counts"`
}

// Options tune a diff.
type Options struct {
	// Secrets finds secret-like strings in added records (nil: the
	// built-in rules).
	Secrets *secrets.Policy
}

// Diff compares the records of files, pairing a record's two versions by
// kind and id across folders, and returns the changes with the warnings.
// Files that hold no record are left out; a file that does not parse is
// an invalid change.
func Diff(files []File, opt Options) *Result {
	type key struct{ kind, id string }
	olds, news := map[key]*record{}, map[key]*record{}
	var keys []key
	res := &Result{Changes: []Change{}, Warnings: []Warning{}, Counts: map[string]int{}}
	seen := map[key]bool{}
	add := func(m map[key]*record, r *record) {
		k := key{r.kind, r.id}
		if prev, ok := m[k]; ok && prev.path != r.path {
			// Two files claim one id: keep both apart by path.
			k.id = r.path
		}
		m[k] = r
		if !seen[k] {
			seen[k] = true
			keys = append(keys, k)
		}
	}
	// Parsing the versions is most of a diff's work: done on every core,
	// then paired in the files' order.
	parsed := make([][2]*record, len(files))
	parallel.For(len(files), func(i int) {
		f := files[i]
		if RecordKind(f.Path) == "" {
			return
		}
		if f.Old != nil {
			parsed[i][0] = parseRecord(f.Path, f.Old)
		}
		if f.New != nil {
			parsed[i][1] = parseRecord(f.Path, f.New)
		}
	})
	for _, p := range parsed {
		if p[0] != nil {
			add(olds, p[0])
		}
		if p[1] != nil {
			add(news, p[1])
		}
	}
	bodies := map[string]string{} // old bullet bodies by id, for merges
	for k, r := range olds {
		if k.kind == RecordBullet && r.err == "" {
			bodies[r.id] = r.body
		}
	}
	d := &differ{res: res, pol: opt.Secrets, bodies: bodies}
	for _, k := range keys {
		d.record(olds[k], news[k])
	}
	sortChanges(res.Changes)
	sort.SliceStable(res.Warnings, func(i, j int) bool { return res.Warnings[i].Path < res.Warnings[j].Path })
	for _, c := range res.Changes {
		res.Counts[c.Kind]++
	}
	return res
}

type differ struct {
	res    *Result
	pol    *secrets.Policy
	bodies map[string]string
}

func (d *differ) change(c Change) { d.res.Changes = append(d.res.Changes, c) }

func (d *differ) warn(r *record, kind, msg string) {
	d.res.Warnings = append(d.res.Warnings, Warning{Kind: kind, Record: r.kind, ID: r.id, Path: r.path, Message: msg})
}

// record compares the two versions of one record (nil: absent).
func (d *differ) record(o, n *record) {
	for _, r := range []*record{o, n} {
		if r != nil && r.err != "" {
			side := "old"
			if r == n {
				side = "new"
				d.warn(r, WarnInvalid, "does not parse: "+lineText(r.line)+r.err)
			}
			d.change(Change{Kind: Invalid, Record: r.kind, ID: r.id, Path: r.path, Line: r.line, Error: r.err, Side: side})
		}
	}
	if (o != nil && o.err != "") || (n != nil && n.err != "") {
		return
	}
	switch {
	case o == nil:
		d.added(n)
	case n == nil:
		d.removed(o)
	default:
		d.changed(o, n)
	}
}

func (d *differ) added(n *record) {
	c := Change{Kind: Added, Record: n.kind, ID: n.id, Path: n.path, To: n.folder}
	switch n.kind {
	case RecordBullet:
		c.Parents = appendNew(n.strs("merged_from"), n.strs("parent_bullet_id")...)
		if len(c.Parents) > 0 {
			c.Kind = Merged
			c.Sentences = d.merge(n, c.Parents)
		}
	case RecordBrief:
		c.Kind = Written
	}
	d.secrets(n)
	d.change(c)
}

func (d *differ) removed(o *record) {
	d.change(Change{Kind: Removed, Record: o.kind, ID: o.id, Path: o.path, From: o.folder})
	switch o.kind {
	case RecordMemory:
		if o.folder == "trash" {
			return // purged from the trash
		}
		d.warn(o, WarnRemoved, "memory "+o.id+" was deleted instead of trashed")
	case RecordBullet:
		d.warn(o, WarnRemoved, "bullet "+o.id+" was deleted instead of archived")
	}
}

func (d *differ) changed(o, n *record) {
	c := Change{Kind: Edited, Record: n.kind, ID: n.id, Path: n.path, Keys: keyChanges(o, n), Body: o.body != n.body}
	if n.kind == RecordPipeline {
		c.Kind, c.Keys, c.Body = State, stateChanges(o, n), false
	}
	if o.folder != n.folder {
		c.From, c.To = o.folder, n.folder
		c.Kind = moveKind(n.kind, o.folder, n.folder)
		if c.Kind == Trashed {
			if t, ok := n.keys["trashed"].(map[string]any); ok {
				c.Reason, _ = t["reason"].(string)
			}
		}
	} else if len(c.Keys) == 0 && !c.Body {
		return // only line ends or formatting changed
	}
	if n.kind == RecordBrief && c.Kind == Edited {
		c.Kind = Written
	}
	if c.Body && (n.kind == RecordBullet || n.kind == RecordMemory) {
		c.BodyDiff = WordDiff(o.body, n.body)
	}
	d.reused(n, c.Keys)
	d.counters(n, c.Keys)
	if c.Kind == Edited && n.kind == RecordBullet && !c.Body {
		c.Kind = counterKind(c.Keys)
	}
	d.change(c)
}

// moveKind names a move between folders.
func moveKind(kind, from, to string) string {
	switch kind {
	case RecordMemory:
		switch {
		case to == "trash":
			return Trashed
		case from == "trash":
			return Restored
		case from == "inbox" && strings.HasPrefix(to, "confirmed/"):
			return Promoted
		}
	case RecordBullet:
		switch {
		case strings.HasPrefix(to, "archive/") && strings.HasPrefix(from, "bullets/"):
			return Archived
		case strings.HasPrefix(from, "archive/") && strings.HasPrefix(to, "bullets/"):
			return Restored
		}
	case RecordReflection:
		if to == "merged" {
			return Curated
		}
	}
	return Moved
}

// counterKeys are a bullet's counters.
var counterKeys = []string{"helpful_count", "harmful_count", "usage_count"}

// bookkeeping keys change with any use of a record.
var bookkeeping = map[string]bool{"updated_at": true, "last_used_at": true}

// counterKind is reinforced when only helpful_count and usage_count went up
// (with the times of use), counters when another counter changed, else
// edited.
func counterKind(keys map[string]KeyChange) string {
	up, other, counter := false, false, false
	for k, kc := range keys {
		if bookkeeping[k] {
			continue
		}
		if !isCounter(k) {
			other = true
			continue
		}
		counter = true
		a, _ := number(kc.Old)
		b, _ := number(kc.New)
		if (k == "helpful_count" || k == "usage_count") && b > a {
			up = true
		} else {
			other = true
		}
	}
	switch {
	case up && !other:
		return Reinforced
	case counter && !hasNonCounter(keys):
		return Counters
	}
	return Edited
}

func isCounter(k string) bool {
	for _, c := range counterKeys {
		if c == k {
			return true
		}
	}
	return false
}

func hasNonCounter(keys map[string]KeyChange) bool {
	for k := range keys {
		if !isCounter(k) && !bookkeeping[k] {
			return true
		}
	}
	return false
}

// counters warns about a counter that went down.
func (d *differ) counters(n *record, keys map[string]KeyChange) {
	var names []string
	for k := range keys {
		if strings.HasSuffix(k, "_count") {
			names = append(names, k)
		}
	}
	sort.Strings(names)
	for _, k := range names {
		a, okA := number(keys[k].Old)
		b, okB := number(keys[k].New)
		if okA && okB && b < a {
			d.warn(n, WarnCounterDown, k+" went down: "+Value(keys[k].Old)+" → "+Value(keys[k].New))
		}
	}
}

// keyChanges are the keys whose values differ, unknown keys included.
func keyChanges(o, n *record) map[string]KeyChange {
	out := map[string]KeyChange{}
	for k, ov := range o.keys {
		if nv, ok := n.keys[k]; !ok || !reflect.DeepEqual(ov, nv) {
			out[k] = KeyChange{Old: ov, New: n.keys[k]}
		}
	}
	for k, nv := range n.keys {
		if _, ok := o.keys[k]; !ok {
			out[k] = KeyChange{New: nv}
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// appendNew appends the strings of add not yet in xs.
func appendNew(xs []string, add ...string) []string {
	for _, a := range add {
		found := false
		for _, x := range xs {
			found = found || x == a
		}
		if !found {
			xs = append(xs, a)
		}
	}
	return xs
}

// sortChanges orders changes by kind (ChangeKinds' order), then path.
func sortChanges(cs []Change) {
	rank := map[string]int{}
	for i, k := range ChangeKinds {
		rank[k] = i
	}
	sort.SliceStable(cs, func(i, j int) bool {
		if cs[i].Kind != cs[j].Kind {
			return rank[cs[i].Kind] < rank[cs[j].Kind]
		}
		return cs[i].Path < cs[j].Path
	})
}

func lineText(line int) string {
	if line <= 0 {
		return ""
	}
	return "line " + itoa(line) + ": "
}

// birthKeys are the keys a record gets when it is made and keeps for
// life: a new value under the same id is another record reusing the id.
var birthKeys = map[string]string{RecordMemory: "ingestion_time", RecordBullet: "created_at"}

// reused warns when a record's birth key changed: the id now names
// different content (a new record given an old one's id, by hand or by
// two agents at once).
func (d *differ) reused(n *record, keys map[string]KeyChange) {
	k, ok := birthKeys[n.kind]
	if !ok {
		return
	}
	if kc, changed := keys[k]; changed && kc.Old != nil && kc.New != nil {
		d.warn(n, WarnIDReused, fmt.Sprintf("%s %s is another record under an old id (%s %s → %s)", n.kind, n.id, k, Value(kc.Old), Value(kc.New)))
	}
}

// Compare is the record-level diff of spec (see Changed: "", REV, REV^!,
// A..B, A...B), or, when staged, of what is staged against HEAD (spec
// must then be empty), in the repository holding dir.
func Compare(dir, spec string, staged bool, opt Options) (*Result, error) {
	var files []File
	var err error
	if staged {
		files, err = Staged(dir)
	} else {
		files, err = Changed(dir, spec)
	}
	if err != nil {
		return nil, err
	}
	return Diff(files, opt), nil
}

// Show is the run commit rev records and the record-level diff of what
// it did (rev^!).
func Show(dir, rev string, opt Options) (Run, *Result, error) {
	run, err := RunAt(dir, rev)
	if err != nil {
		return run, nil, err
	}
	files, err := Changed(dir, rev+"^!")
	if err != nil {
		return run, nil, err
	}
	return run, Diff(files, opt), nil
}
