package layout

import (
	"path"
	"slices"
	"strings"
)

// Kind is the kind of record a file holds ("" for none).
type Kind string

// The kinds of record.
const (
	None       Kind = ""
	Memory     Kind = "memory"
	Bullet     Kind = "bullet"
	Reflection Kind = "reflection"
	MergeLog   Kind = "merge log"
	Metrics    Kind = "metrics"
	Pipeline   Kind = "pipeline"
	Brief      Kind = "brief"
)

// Folder is one folder of the store and what its files hold.
type Folder struct {
	// Dir is the store-relative folder, with slashes.
	Dir string
	// Kind is the kind of record its files hold, at any depth below it
	// (unless Name says otherwise).
	Kind Kind
	// Status is the status its records have (a memory's inbox, confirmed
	// or trash; a bullet active or archived; a reflection pending or
	// merged); "" for a folder that only groups others.
	Status string
	// Rank is the folder's place among its kind's folders (1 first).
	Rank int
	// Sub means its records sit one folder deeper: a confirmed memory's
	// type, a bullet's category.
	Sub bool
	// Exts are the extensions of its record files.
	Exts []string
	// Name, when set, is how the names of its record files begin; they sit
	// in the folder itself, not deeper.
	Name string
	// Checked means its markdown files are read, and so written, with the
	// checks every record gets.
	Checked bool
}

var (
	md     = []string{".md"}
	mdJSON = []string{".md", ".json"}
)

// Folders is the store's layout. A path belongs to the deepest folder that
// holds it.
var Folders = []Folder{
	{Dir: "memory", Kind: Memory, Exts: md, Checked: true},
	{Dir: "memory/inbox", Kind: Memory, Status: "inbox", Rank: 1, Exts: md, Checked: true},
	{Dir: "memory/confirmed", Kind: Memory, Status: "confirmed", Rank: 2, Sub: true, Exts: md, Checked: true},
	{Dir: "memory/trash", Kind: Memory, Status: "trash", Rank: 3, Exts: md, Checked: true},
	{Dir: "context", Checked: true},
	{Dir: "context/bullets", Kind: Bullet, Status: "active", Rank: 1, Sub: true, Exts: md, Checked: true},
	{Dir: "context/archive", Kind: Bullet, Status: "archived", Rank: 2, Sub: true, Exts: md, Checked: true},
	{Dir: "context/reflections", Kind: Reflection, Exts: mdJSON, Checked: true},
	{Dir: "context/reflections/pending", Kind: Reflection, Status: "pending", Rank: 1, Exts: mdJSON, Checked: true},
	{Dir: "context/reflections/merged", Kind: Reflection, Status: "merged", Rank: 2, Exts: mdJSON, Checked: true},
	{Dir: "context/log", Kind: MergeLog, Exts: []string{".jsonl"}, Checked: true},
	{Dir: "context/metrics", Kind: Metrics, Exts: []string{".json"}, Checked: true},
	{Dir: "pipelines", Kind: Pipeline, Exts: []string{".json"}, Name: "pipeline-state-"},
	{Dir: "pipelines/context-briefs", Kind: Brief, Exts: md},
}

// prefixes are the folders' Dirs, each with its slash.
var prefixes = func() []string {
	out := make([]string, len(Folders))
	for i, f := range Folders {
		out[i] = f.Dir + "/"
	}
	return out
}()

// Place is where a store-relative path sits in the layout.
type Place struct {
	// Folder is the deepest folder of the layout holding the path (the
	// zero Folder when none does).
	Folder Folder
	// Sub is the folder below it that places a record (a memory's type, a
	// bullet's category), for a Folder with Sub.
	Sub string
	// Rest is the path below Folder (and Sub).
	Rest string
}

// Of places a store-relative path in the layout.
func Of(rel string) Place {
	best := -1
	for i, pre := range prefixes {
		if strings.HasPrefix(rel, pre) && (best < 0 || len(pre) > len(prefixes[best])) {
			best = i
		}
	}
	if best < 0 {
		return Place{}
	}
	p := Place{Folder: Folders[best], Rest: rel[len(prefixes[best]):]}
	if p.Folder.Sub {
		if sub, rest, ok := strings.Cut(p.Rest, "/"); ok {
			p.Sub, p.Rest = sub, rest
		}
	}
	return p
}

// Exact reports whether the path sits where its folder's records do:
// directly in the folder, or in one of its subfolders for a Folder with Sub.
func (p Place) Exact() bool {
	if p.Folder.Dir == "" || p.Rest == "" || strings.Contains(p.Rest, "/") {
		return false
	}
	return !p.Folder.Sub || p.Sub != ""
}

// Dir is the folder that holds the record: Folder's Dir, and its Sub.
func (p Place) Dir() string {
	if p.Sub != "" {
		return p.Folder.Dir + "/" + p.Sub
	}
	return p.Folder.Dir
}

// KindOf is the kind of record the file at a store-relative path holds:
// its folder's kind, for a file with one of the folder's extensions (and
// its name's beginning, directly in the folder, where the folder says).
func KindOf(rel string) Kind {
	p := Of(rel)
	f := p.Folder
	if f.Kind == None || !slices.Contains(f.Exts, path.Ext(rel)) {
		return None
	}
	if f.Name != "" && (strings.Contains(p.Rest, "/") || !strings.HasPrefix(p.Rest, f.Name)) {
		return None
	}
	return f.Kind
}

// Checked reports whether the file at a store-relative path is read as a
// record, with the checks every record gets: markdown under memory/ and
// context/.
func Checked(rel string) bool {
	return strings.HasSuffix(rel, ".md") && Of(rel).Folder.Checked
}

// MemoryStatus is the status of the memory at a store-relative path, by
// its folder (inbox for a path in none of the three).
func MemoryStatus(rel string) string {
	if f := Of(rel).Folder; f.Kind == Memory && f.Status != "" {
		return f.Status
	}
	return "inbox"
}

// ActiveBullet reports whether a store-relative path is in the folder of
// the active bullets (not the archive).
func ActiveBullet(rel string) bool {
	f := Of(rel).Folder
	return f.Kind == Bullet && f.Status == "active"
}
