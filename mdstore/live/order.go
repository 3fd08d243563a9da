package live

import (
	"cmp"
	"maps"
	"math/bits"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/curator-dev/curator/mdstore"
	"github.com/curator-dev/curator/mdstore/layout"
)

// The live listing's orders: every selection a mdstore.MemoryQuery can make before
// its window (status × type, with or without the secrets policy) has its
// own list of records sorted by (ingestion_time, id, path), so that a
// listing is two binary searches for its window and a slice for its page.
// A record belongs to at most eight lists; 100,000 records cost about 6 MB
// of pointers.

// liveLeaf is one folder that holds memory files.
type liveLeaf struct {
	rel    string // store-relative
	status int    // 1 inbox, 2 confirmed, 3 trash
	typ    int    // 1.. for confirmed/<type>, 0 for inbox and trash
}

// liveLeaves are the folders ListMemories reads, in its order.
var liveLeaves = func() []liveLeaf {
	var out []liveLeaf
	for _, rel := range mdstore.MemoryFolders("", "") {
		l := liveLeaf{rel: rel, status: statusIndex(layout.MemoryStatus(rel + "/"))}
		if l.status == 2 {
			l.typ = typeIndex(strings.TrimPrefix(rel, "memory/confirmed/"))
		}
		out = append(out, l)
	}
	return out
}()

// leafMask is a set of liveLeaves.
type leafMask uint32

// leafIndex returns the place of a store-relative folder in liveLeaves.
func leafIndex(rel string) (int, bool) {
	for i, l := range liveLeaves {
		if l.rel == rel {
			return i, true
		}
	}
	return 0, false
}

// foldersMask is the set of folders ListMemories reads for a status and type.
func foldersMask(status, typ string) leafMask {
	var m leafMask
	for _, rel := range mdstore.MemoryFolders(status, typ) {
		if i, ok := leafIndex(rel); ok {
			m |= 1 << i
		}
	}
	return m
}

// statusIndex numbers a query's status: 0 for all, -1 for none known.
func statusIndex(s string) int {
	if s == "" {
		return 0
	}
	if i := slices.Index(mdstore.MemoryStatuses, s); i >= 0 {
		return i + 1
	}
	return -1
}

// typeIndex numbers a query's type: 0 for all, -1 for none known.
func typeIndex(t string) int {
	if t == "" {
		return 0
	}
	if i := slices.Index(mdstore.MemoryTypes, t); i >= 0 {
		return i + 1
	}
	return -1
}

// liveEntry is one memory file as the live listing holds it: its
// record's fields packed (mdstore.PackMemory, unpacked for each answer),
// the sort key and type apart. About 64 bytes and the packed fields per
// record, and no pointer the collector follows into them.
type liveEntry struct {
	rel    string // store-relative path
	packed []byte // the record's fields; nil when the file cannot be read
	rare   *liveRare
	sec    int64 // ingestion time: Unix seconds
	nsec   int32 // and nanoseconds
	leaf   uint8 // in liveLeaves
	typ    uint8 // typeIndex of the record's type; 0 when unreadable
	// recheck: a symlink, or a file with other hard links, whose changes
	// need not show in its folder's events; read again at every listing.
	recheck bool
	dead    bool // replaced or gone; dropped by the next merge of its lists
	// checked: the packed fields are known to unpack (packed here, or
	// unpacked once by a window); those from the memory index are not.
	checked bool
}

// liveRare is what few entries have.
type liveRare struct {
	bad    *mdstore.InvalidFile // why the file cannot be read
	secret *mdstore.InvalidFile // the secret the live listing's policy found in it
	odd    *mdstore.Memory      // a record that cannot be packed, held as read
}

// newLiveEntry is the entry of a record read from the file at rel.
func newLiveEntry(leaf int, rel string, m *mdstore.Memory) *liveEntry {
	e := &liveEntry{rel: rel, leaf: uint8(leaf), typ: uint8(max(typeIndex(m.Type), 0))}
	e.sec, e.nsec = m.IngestionTime.Unix(), int32(m.IngestionTime.Nanosecond())
	if packed, ok := mdstore.PackMemory(m); ok {
		e.packed, e.checked = packed, true
	} else {
		m.Doc, m.ImportanceFactors = nil, nil
		e.rare = &liveRare{odd: m}
	}
	return e
}

// readable tells an entry whose record is held from one that could not be read.
func (e *liveEntry) readable() bool { return e.packed != nil || e.rare != nil && e.rare.odd != nil }

func (e *liveEntry) bad() *mdstore.InvalidFile {
	if e.rare == nil {
		return nil
	}
	return e.rare.bad
}

func (e *liveEntry) secret() *mdstore.InvalidFile {
	if e.rare == nil {
		return nil
	}
	return e.rare.secret
}

// name is the file's name, which is the record's id and ".md".
func (e *liveEntry) name() string { return e.rel[strings.LastIndexByte(e.rel, '/')+1:] }

// memory is the entry's record, as a Light listing returns it: a copy
// that shares nothing with the entry, so that a caller may edit it
// (LoadDocument sets its Doc).
func (e *liveEntry) memory() (*mdstore.Memory, error) {
	if e.rare != nil && e.rare.odd != nil {
		return liveCopy(e.rare.odd), nil
	}
	return mdstore.UnpackMemory(e.rel, mdstore.MemoryTypes[e.typ-1], e.packed)
}

// liveSlots is the number of lists: [secrets applied][status][type].
const liveSlots = 2 * 4 * 4

func slot(secrets, status, typ int) int { return secrets*16 + status*4 + typ }

// slots is the set of lists the entry belongs to.
func (e *liveEntry) slots() uint32 {
	if !e.readable() {
		return 0
	}
	leaf := liveLeaves[e.leaf]
	t := int(e.typ)
	// ListMemories reads confirmed/<type> only for that type (or for all
	// types) and then keeps the records of the type asked for: a record
	// of another type in that folder shows only when no type is asked for.
	fits := t > 0 && (leaf.typ == 0 || leaf.typ == t)
	var set uint32
	for p := range 2 {
		if p == 1 && e.secret() != nil {
			continue
		}
		set |= 1<<slot(p, 0, 0) | 1<<slot(p, leaf.status, 0)
		if fits {
			set |= 1<<slot(p, 0, t) | 1<<slot(p, leaf.status, t)
		}
	}
	return set
}

// liveCompare orders by (ingestion_time, id) as SortMemories does, then by
// path, which ListMemories leaves unspecified. A record's id is its
// file's name without ".md" (ReadMemory checks it).
func liveCompare(a, b *liveEntry) int {
	if c := cmp.Compare(a.sec, b.sec); c != 0 {
		return c
	}
	if c := cmp.Compare(a.nsec, b.nsec); c != 0 {
		return c
	}
	an, bn := a.name(), b.name()
	if c := strings.Compare(an[:len(an)-3], bn[:len(bn)-3]); c != 0 {
		return c
	}
	return strings.Compare(a.rel, b.rel)
}

// before tells an entry ingested before t.
func (e *liveEntry) before(t time.Time) bool {
	sec := t.Unix()
	return e.sec < sec || e.sec == sec && int(e.nsec) < t.Nanosecond()
}

// liveOrders are the sorted lists.
type liveOrders [liveSlots][]*liveEntry

// smallChange is how many changes a list takes one by one (a binary search
// and a move of the tail each); more are merged in one pass.
const smallChange = 16

// rebuild sorts all entries once and deals them out to their lists.
func (o *liveOrders) rebuild(all []*liveEntry) {
	slices.SortFunc(all, liveCompare)
	var n [liveSlots]int
	for _, e := range all {
		for set := e.slots(); set != 0; set &= set - 1 {
			n[lowBit(set)]++
		}
	}
	for i := range o {
		o[i] = make([]*liveEntry, 0, n[i])
	}
	for _, e := range all {
		for set := e.slots(); set != 0; set &= set - 1 {
			i := lowBit(set)
			o[i] = append(o[i], e)
		}
	}
}

func lowBit(set uint32) int { return bits.TrailingZeros32(set) }

// liveChange is one file whose entry changed: old and new may be nil.
type liveChange struct{ old, new *liveEntry }

// update applies changes to the lists. An entry whose sort key and lists
// stay the same is swapped in place; the others leave and join their lists,
// one by one when few change, else by one merge per list.
func (o *liveOrders) update(changes []liveChange) {
	var out, in [liveSlots][]*liveEntry
	for _, c := range changes {
		var was, is uint32
		if c.old != nil {
			was = c.old.slots()
		}
		if c.new != nil {
			is = c.new.slots()
		}
		if was != 0 && was == is && liveCompare(c.old, c.new) == 0 {
			for set := was; set != 0; set &= set - 1 {
				o.swap(lowBit(set), c.old, c.new)
			}
			continue
		}
		for set := was; set != 0; set &= set - 1 {
			out[lowBit(set)] = append(out[lowBit(set)], c.old)
		}
		for set := is; set != 0; set &= set - 1 {
			in[lowBit(set)] = append(in[lowBit(set)], c.new)
		}
	}
	for i := range o {
		if len(out[i])+len(in[i]) == 0 {
			continue
		}
		if len(out[i])+len(in[i]) <= smallChange {
			for _, e := range out[i] {
				o.remove(i, e)
			}
			for _, e := range in[i] {
				o.insert(i, e)
			}
			continue
		}
		o.merge(i, in[i])
	}
}

// find returns where e is, or would be, in list i.
func (o *liveOrders) find(i int, e *liveEntry) int {
	l := o[i]
	return sort.Search(len(l), func(k int) bool { return liveCompare(l[k], e) >= 0 })
}

func (o *liveOrders) swap(i int, old, new *liveEntry) {
	if k := o.find(i, old); k < len(o[i]) && o[i][k] == old {
		o[i][k] = new
		return
	}
	o.remove(i, old) // not where its key says: keep the list whole anyway
	o.insert(i, new)
}

func (o *liveOrders) remove(i int, e *liveEntry) {
	k := o.find(i, e)
	if k >= len(o[i]) || o[i][k] != e {
		if k = slices.Index(o[i], e); k < 0 {
			return
		}
	}
	o[i] = slices.Delete(o[i], k, k+1)
}

func (o *liveOrders) insert(i int, e *liveEntry) {
	o[i] = slices.Insert(o[i], o.find(i, e), e)
}

// merge drops the dead entries of list i and merges in the new ones.
func (o *liveOrders) merge(i int, in []*liveEntry) {
	slices.SortFunc(in, liveCompare)
	old := o[i]
	out := make([]*liveEntry, 0, len(old)+len(in))
	k := 0
	for _, e := range old {
		if e.dead {
			continue
		}
		for k < len(in) && liveCompare(in[k], e) < 0 {
			out = append(out, in[k])
			k++
		}
		out = append(out, e)
	}
	o[i] = append(out, in[k:]...)
}

// window returns the entries of list i with from <= ingestion_time < to
// (a zero bound is open).
func (o *liveOrders) window(i int, from, to time.Time) []*liveEntry {
	l := o[i]
	lo, hi := 0, len(l)
	if !from.IsZero() {
		lo = sort.Search(len(l), func(k int) bool { return !l[k].before(from) })
	}
	if !to.IsZero() {
		hi = sort.Search(len(l), func(k int) bool { return !l[k].before(to) })
	}
	if hi < lo {
		hi = lo
	}
	return l[lo:hi]
}

// liveCopy is a copy of a held record that shares nothing with it.
func liveCopy(m *mdstore.Memory) *mdstore.Memory {
	c := *m
	c.Tags = slices.Clone(m.Tags)
	c.SourceCases = slices.Clone(m.SourceCases)
	if m.ContentConfidence != nil {
		v := *m.ContentConfidence
		c.ContentConfidence = &v
	}
	c.ImportanceFactors = maps.Clone(m.ImportanceFactors)
	c.Observation = copyMap(m.Observation)
	c.Trashed = copyMap(m.Trashed)
	return &c
}

func copyMap(m map[string]any) map[string]any {
	if m == nil {
		return nil
	}
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = copyValue(v)
	}
	return out
}

// copyValue copies what YAML decodes to: maps, lists and scalars.
func copyValue(v any) any {
	switch x := v.(type) {
	case map[string]any:
		return copyMap(x)
	case map[any]any:
		out := make(map[any]any, len(x))
		for k, v := range x {
			out[k] = copyValue(v)
		}
		return out
	case []any:
		if x == nil {
			return x
		}
		out := make([]any, len(x))
		for i, v := range x {
			out[i] = copyValue(v)
		}
		return out
	}
	return v
}
