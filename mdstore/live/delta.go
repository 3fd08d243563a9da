package live

import (
	"sort"
	"strings"

	"github.com/curator-dev/curator/mdstore"
)

// maxLogged is how many changed paths the listing remembers for ListDelta;
// past it, a caller whose listing is older gets the whole listing again.
const maxLogged = 1 << 14

// changeLog holds the paths each version of the listing changed (apply),
// oldest first: every change after version from is in it.
type changeLog struct {
	from     uint64
	versions []uint64
	rels     []string
}

// record logs the paths a new version changed.
func (c *changeLog) record(version uint64, changes []liveChange) {
	if len(c.rels)+len(changes) > maxLogged {
		*c = changeLog{from: version}
		return
	}
	for _, ch := range changes {
		e := ch.new
		if e == nil {
			e = ch.old
		}
		c.versions = append(c.versions, version)
		c.rels = append(c.rels, e.rel)
	}
}

// since is the paths changed after version v, each once, and whether the
// log reaches back that far.
func (c *changeLog) since(v uint64) ([]string, bool) {
	if v < c.from {
		return nil, false
	}
	i := sort.Search(len(c.versions), func(i int) bool { return c.versions[i] > v })
	seen := make(map[string]bool, len(c.rels)-i)
	var out []string
	for _, rel := range c.rels[i:] {
		if !seen[rel] {
			seen[rel] = true
			out = append(out, rel)
		}
	}
	return out, true
}

// ListDelta is ListChanged, except that when the records changed since the
// listing that returned since are known, only they are returned: the list
// is then a delta (Delta set), its Memories the changed records that the
// query lists now, Removed the paths of the others (gone, moved away,
// unreadable), and Invalid every file of the query's folders that cannot
// be read, as in a whole listing (those whose fields the listing holds
// but cannot unpack last, by path, not in the listing's order). A query with a window, a type, a page or
// a secrets policy gets the whole listing, and so does a caller whose
// listing is older than the changes remembered (maxLogged).
func (l *Memories) ListDelta(q mdstore.MemoryQuery, since uint64) (*mdstore.MemoryList, uint64, error) {
	l.run.Lock()
	defer l.run.Unlock()
	res, version, done, err := l.changed(q, since)
	if done || err != nil {
		return res, version, err
	}
	st := statusIndex(q.Status)
	plain := st >= 0 && q.Type == "" && q.From.IsZero() && q.To.IsZero() && q.Offset == 0 && q.Limit == 0 && q.Secrets == nil
	rels, ok := l.log.since(since)
	if since == 0 || !plain || !ok {
		return l.answer(q), l.version, nil
	}
	res = &mdstore.MemoryList{Delta: true, Total: len(l.orders[slot(0, st, 0)])}
	for _, rel := range rels {
		slash := strings.LastIndexByte(rel, '/')
		leaf, _ := leafIndex(rel[:slash])
		e := l.entries[leaf][rel[slash+1:]]
		if e == nil || e.slots()&(1<<slot(0, st, 0)) == 0 {
			res.Removed = append(res.Removed, rel)
			continue
		}
		m, err := e.memory()
		if err != nil {
			l.undecodable[rel] = mdstore.InvalidFileOf(rel, err)
			res.Removed = append(res.Removed, rel)
			continue
		}
		res.Memories = append(res.Memories, m)
	}
	res.Invalid = l.invalidOf(q)
	var undecodable []string
	for rel := range l.undecodable {
		slash := strings.LastIndexByte(rel, '/')
		if leaf, ok := leafIndex(rel[:slash]); ok && (st == 0 || liveLeaves[leaf].status == st) {
			undecodable = append(undecodable, rel)
		}
	}
	sort.Strings(undecodable)
	for _, rel := range undecodable {
		res.Invalid = append(res.Invalid, l.undecodable[rel])
	}
	return res, l.version, nil
}
