package bulletid

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// Allocator hands out bullet ids that were never used before.
//
// It keeps the highest number of each prefix; the ids it was shown are
// looked at again only for a number whose versions or use a run asks
// about (NextVersion, Used), so a run on a playbook of 100,000 bullets
// does not index every id it ever used.
type Allocator struct {
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

// NewAllocator returns an allocator for the configured prefixes (nil
// means DefaultPrefixes) that never hands out the given ids or smaller
// numbers of their prefixes.
func NewAllocator(prefixes map[string]string, seen ...string) *Allocator {
	a := &Allocator{prefixes: map[string]string{}, max: map[string]int{}, versions: map[string]int{}, used: map[string]bool{}, looked: map[string]bool{}}
	for k, v := range DefaultPrefixes {
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
func (a *Allocator) Observe(id string) {
	if id == "" {
		return
	}
	p, n, _, ok := Parse(id)
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
func (a *Allocator) look(p string, n int) {
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
		if q, m, _, ok := Parse(id); ok && q == p && m == n {
			a.record(id)
		}
	}
}

// record notes an observed id in the maps of used ids and versions.
func (a *Allocator) record(id string) {
	if a.used[id] {
		return
	}
	a.used[id] = true
	p, n, v, ok := Parse(id)
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
func (a *Allocator) Prefix(category string) string {
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
func (a *Allocator) Used(id string) bool {
	p, n, v, ok := Parse(id)
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
func (a *Allocator) CategoryOf(id string) string {
	p, _, _, ok := Parse(id)
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
func (a *Allocator) Next(category string) string {
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
func (a *Allocator) NextVersion(id string) string {
	base := Base(id)
	if p, n, _, ok := Parse(id); ok {
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
