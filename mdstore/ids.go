package mdstore

// Bullet ids: how they are allocated so that none is ever handed out twice.
//
// A bullet id is <PREFIX>-<NNN> (the prefix comes from the category through
// config.yaml id_prefixes; NNN is at least three digits), and a merged
// version of it is <PREFIX>-<NNN>-v<N>. The next id of a prefix is
// 1 + the highest number that the prefix has EVER had, where "ever" is the
// union of:
//
//  1. the ids of every bullet file, active (context/bullets) and archived
//     (context/archive), their parent_bullet_id and merged_from lists;
//  2. every id named in the merge log (context/log/**.jsonl: bullet_id,
//     target_bullet_id, merged_from_bullet_ids), which is append-only, one
//     file per run, and so survives the deletion of a bullet file and merges
//     of branches without conflicts;
//  3. the names of the bullet files (active and archived) at the tip of every
//     local branch and remote-tracking branch of the git repository, so that
//     an id used on another branch that this one has not merged yet is not
//     handed out here.
//
// A number once seen is never handed out again, even after its bullet was
// merged, archived or deleted. Versions work the same way: the next version
// of a base id is 1 + the highest version ever seen for that base. Two
// machines that allocate at the same moment without sharing a branch can
// still both pick the same next number; `curator sync` (or a plain git
// merge) then meets an add/add conflict on that file, never a silent reuse.

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/curator-dev/curator/internal/durable"
	"github.com/curator-dev/curator/internal/gitcommit"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// DefaultIDPrefixes are the id prefixes of the built-in categories.
var DefaultIDPrefixes = map[string]string{
	"strategy": "STRAT", "pattern": "PATTERN", "anti-pattern": "ANTI", "api": "API",
	"troubleshooting": "TRBL", "verification": "VERIF", "other": "MISC",
}

var idRE = regexp.MustCompile(`^(.+)-(\d+)(?:-v(\d+))?$`)

// ParseBulletID splits an id into prefix, number and version (1 when the id
// has no -vN). ok is false for ids not of the form PREFIX-NNN[-vN].
func ParseBulletID(id string) (prefix string, n, version int, ok bool) {
	m, ok := splitBulletID(id)
	if !ok {
		return "", 0, 0, false
	}
	n, err := strconv.Atoi(m[2])
	if err != nil {
		return "", 0, 0, false
	}
	version = 1
	if m[3] != "" {
		version, _ = strconv.Atoi(m[3])
	}
	return m[1], n, version, true
}

// splitBulletID matches id against idRE (whole match, then the groups;
// ok false when it does not match), without the regular expression and
// without an allocation for the usual forms: it is called for every id a
// playbook ever used.
func splitBulletID(id string) (m [4]string, ok bool) {
	if strings.ContainsRune(id, '\n') {
		r := idRE.FindStringSubmatch(id)
		if r == nil {
			return m, false
		}
		copy(m[:], r)
		return m, true
	}
	// digitsAtEnd splits s into what precedes "-<digits>" at its end and
	// the digits.
	digitsAtEnd := func(s string) (string, string, bool) {
		j := len(s)
		for j > 0 && s[j-1] >= '0' && s[j-1] <= '9' {
			j--
		}
		if j == len(s) || j < 2 || s[j-1] != '-' {
			return "", "", false
		}
		return s[:j-1], s[j:], true
	}
	if p, d, ok := digitsAtEnd(id); ok {
		return [4]string{id, p, d, ""}, true
	}
	j := len(id)
	for j > 0 && id[j-1] >= '0' && id[j-1] <= '9' {
		j--
	}
	if j == len(id) || j < 2 || id[j-2:j] != "-v" {
		return m, false
	}
	if p, d, ok := digitsAtEnd(id[:j-2]); ok {
		return [4]string{id, p, d, id[j:]}, true
	}
	return m, false
}

// BaseID strips a -vN suffix.
func BaseID(id string) string {
	if p, n, _, ok := ParseBulletID(id); ok {
		return fmt.Sprintf("%s-%03d", p, n)
	}
	return id
}

// IDAllocator hands out bullet ids that were never used before.
//
// It keeps the highest number of each prefix; the ids it was shown are
// looked at again only for a number whose versions or use a run asks
// about (NextVersion, Used), so a run on a playbook of 100,000 bullets
// does not index every id it ever used.
type IDAllocator struct {
	prefixes map[string]string // category -> prefix
	max      map[string]int    // prefix -> highest number seen
	seen     []string          // ids observed, not yet looked at
	looked   map[string]bool   // base ids whose observed ids were looked at
	versions map[string]int    // base id -> highest version seen (of looked bases)
	used     map[string]bool   // ids of looked bases
	all      bool              // every observed id was recorded
}

// lookAllAfter: after this many base ids looked at one by one, every
// observed id is recorded at once (maintenance merges many bullets).
const lookAllAfter = 16

// NewIDAllocator returns an allocator for the configured prefixes (nil
// means DefaultIDPrefixes) that never hands out the given ids or smaller
// numbers of their prefixes.
func NewIDAllocator(prefixes map[string]string, seen ...string) *IDAllocator {
	a := &IDAllocator{prefixes: map[string]string{}, max: map[string]int{}, versions: map[string]int{}, used: map[string]bool{}, looked: map[string]bool{}}
	for k, v := range DefaultIDPrefixes {
		a.prefixes[k] = v
	}
	for k, v := range prefixes {
		a.prefixes[k] = v
	}
	a.seen = make([]string, 0, len(seen))
	for _, id := range seen {
		a.Observe(id)
	}
	return a
}

// Observe records an id as used.
func (a *IDAllocator) Observe(id string) {
	if id == "" {
		return
	}
	p, n, _, ok := ParseBulletID(id)
	if !ok {
		a.seen = append(a.seen, id)
		return
	}
	if n > a.max[p] {
		a.max[p] = n
	}
	if a.all || len(a.looked) > 0 && a.looked[p+"-"+pad3(n)] {
		a.record(id)
		return
	}
	a.seen = append(a.seen, id)
}

// look records the observed ids of one base id (PREFIX-NNN).
func (a *IDAllocator) look(p string, n int) {
	base := p + "-" + pad3(n)
	if a.all || a.looked[base] {
		return
	}
	a.looked[base] = true
	if len(a.looked) > lookAllAfter {
		for _, id := range a.seen {
			a.record(id)
		}
		a.all, a.seen = true, nil
		return
	}
	for _, id := range a.seen {
		if !strings.HasPrefix(id, p+"-") {
			continue
		}
		if q, m, _, ok := ParseBulletID(id); ok && q == p && m == n {
			a.record(id)
		}
	}
}

// record notes an observed id in the maps of used ids and versions.
func (a *IDAllocator) record(id string) {
	if a.used[id] {
		return
	}
	a.used[id] = true
	p, n, v, ok := ParseBulletID(id)
	if !ok {
		return
	}
	base := p + "-" + pad3(n)
	if v > 1 {
		a.used[base+"-v"+strconv.Itoa(v)] = true
	} else {
		a.used[base] = true
	}
	if v > a.versions[base] {
		a.versions[base] = v
	}
	if bare := strings.TrimSuffix(id, "-v"+strconv.Itoa(v)); bare != base {
		// A number written with other padding (STRAT-7) is its own base too.
		if v > a.versions[bare] {
			a.versions[bare] = v
		}
	}
}

// Prefix is the id prefix of a category: the configured one, or for an
// unknown category its letters and digits, upper-cased, at most 8.
func (a *IDAllocator) Prefix(category string) string {
	if p, ok := a.prefixes[category]; ok && p != "" {
		return p
	}
	var b strings.Builder
	for _, r := range strings.ToUpper(category) {
		if (unicode.IsLetter(r) || unicode.IsDigit(r)) && r < unicode.MaxASCII && b.Len() < 8 {
			b.WriteRune(r)
		}
	}
	if b.Len() == 0 {
		return "MISC"
	}
	return b.String()
}

// Used reports whether an id (or the same id written with other padding)
// was ever used.
func (a *IDAllocator) Used(id string) bool {
	p, n, v, ok := ParseBulletID(id)
	if !ok {
		return a.used[id] || !a.all && slices.Contains(a.seen, id)
	}
	a.look(p, n)
	if a.used[id] {
		return true
	}
	canon := fmt.Sprintf("%s-%03d", p, n)
	if v > 1 {
		canon += fmt.Sprintf("-v%d", v)
	}
	return a.used[canon]
}

// CategoryOf is the category whose prefix an id carries ("" when no
// category has that prefix).
func (a *IDAllocator) CategoryOf(id string) string {
	p, _, _, ok := ParseBulletID(id)
	if !ok {
		return ""
	}
	best := ""
	for c, cp := range a.prefixes {
		if cp == p && (best == "" || c < best) {
			best = c
		}
	}
	return best
}

// Next hands out the next free id of a category.
func (a *IDAllocator) Next(category string) string {
	p := a.Prefix(category)
	for {
		a.max[p]++
		id := fmt.Sprintf("%s-%03d", p, a.max[p])
		if !a.used[id] { // above every number observed: only a recorded id can hold it
			a.Observe(id)
			return id
		}
	}
}

// NextVersion hands out the next version id of a bullet: <base>-v<N>.
func (a *IDAllocator) NextVersion(id string) string {
	base := BaseID(id)
	if p, n, _, ok := ParseBulletID(id); ok {
		a.look(p, n)
	}
	for {
		v := a.versions[base] + 1
		if v < 2 {
			v = 2
		}
		a.versions[base] = v
		nid := fmt.Sprintf("%s-v%d", base, v)
		if !a.Used(nid) {
			a.Observe(nid)
			return nid
		}
	}
}

// KnownBulletIDs returns every bullet id the store has ever used, by the
// three sources described at the top of this file. Merge-log lines that
// cannot be read are returned as invalid files; they do not stop the run.
func (s *Store) KnownBulletIDs(list *BulletList) ([]string, []*InvalidFile, error) {
	ids := make([]string, 0, len(list.Active)+len(list.Archived))
	for _, b := range list.All() {
		ids = append(ids, b.ID)
		if b.ParentBulletID != "" {
			ids = append(ids, b.ParentBulletID)
		}
		ids = append(ids, b.MergedFrom...)
	}
	return s.knownIDs(ids, list.Invalid)
}

// KnownIndexedIDs is KnownBulletIDs for the bullets the bullet index
// lists, without decoding every bullet.
func (s *Store) KnownIndexedIDs(ib *IndexedBullets) ([]string, []*InvalidFile, error) {
	ids := make([]string, 0, len(ib.Active)+len(ib.Archived))
	for _, group := range [][]*BulletSummary{ib.Active, ib.Archived} {
		for _, sum := range group {
			ids = append(ids, sum.ID)
		}
	}
	return s.knownIDs(append(ids, ib.OtherIDs()...), ib.Invalid)
}

// knownIDs adds to the ids of the bullets (and the ids they name) the ids
// of unreadable bullet files, merge logs and the branches' trees.
func (s *Store) knownIDs(ids []string, invalid []*InvalidFile) ([]string, []*InvalidFile, error) {
	// An unreadable bullet file still holds its id: never hand it out (the
	// new bullet would overwrite the file).
	for _, f := range invalid {
		if strings.HasSuffix(f.Path, ".md") {
			ids = append(ids, strings.TrimSuffix(f.Path[strings.LastIndex(f.Path, "/")+1:], ".md"))
		}
	}
	logIDs, bad, err := s.MergeLogIDs()
	if err != nil {
		return nil, nil, err
	}
	ids = append(ids, logIDs...)
	refIDs, err := s.bulletIDsInRefs()
	if err != nil {
		return nil, nil, err
	}
	ids = append(ids, refIDs...)
	return ids, bad, nil
}

// bulletIDsInRefs lists the bullet file names at the tip of every branch and
// remote-tracking branch. A store outside git has none. The names of each
// category's folder tree are kept by tree hash in .cache/ref-bullet-ids, so
// a tree that did not change is not read again.
func (s *Store) bulletIDsInRefs() ([]string, error) {
	r, err := s.OpenRepo()
	if err != nil {
		return nil, nil //nolint:nilerr // no repository: nothing to add
	}
	tips, err := r.Branches()
	if err != nil {
		return nil, err
	}
	cache := s.readRefIDs()
	// HEAD's category trees are noted for the run's commit (noteCommit).
	head := &headFolders{cache: cache, folders: map[string]plumbing.Hash{}}
	var headTree plumbing.Hash
	if h, err := r.HeadCommit(); err == nil && !h.IsZero() {
		if c, err := object.GetCommit(r.Objects(), h); err == nil {
			head.head, headTree = h, c.TreeHash
		}
	}
	seen := map[plumbing.Hash]bool{}
	var ids []string
	for _, tip := range tips {
		c, err := object.GetCommit(r.Objects(), tip)
		if err != nil || seen[c.TreeHash] {
			continue // not a commit: nothing to list
		}
		seen[c.TreeHash] = true
		tree, err := c.Tree()
		if err != nil {
			continue
		}
		for _, root := range []string{"context/bullets", "context/archive"} {
			sub, err := tree.Tree(r.Prefix() + root)
			if err != nil {
				continue
			}
			if c.TreeHash == headTree {
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
		s.headFolders = head
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

func (s *Store) readRefIDs() *refIDs {
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
func (c *refIDs) save(s *Store) {
	var b strings.Builder
	for h := range c.used {
		b.WriteString(h.String() + " " + c.lines[h] + "\n")
	}
	_ = durable.WriteFile(filepath.Join(s.Dir, refIDsPath), []byte(b.String()), 0o644, false)
}

// pad3 is n with at least three digits, as %03d writes it.
func pad3(n int) string {
	s := strconv.Itoa(n)
	if n >= 0 && len(s) < 3 {
		s = strings.Repeat("0", 3-len(s)) + s
	}
	return s
}
