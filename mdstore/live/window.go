package live

import (
	"github.com/curator-dev/curator/mdstore"
)

// A Window is what List answers for a query without an offset or a limit,
// held as the listing's own entries, which never change once made: a
// window of 100,000 records costs 800 kB however large the records are,
// and only the part of it asked for is unpacked. It stays as it was made,
// whatever changes in the store after.
type Window struct {
	l       *Memories         // whose run lock guards the entries' flags (nil: held)
	entries []*liveEntry      // the records, unpacked by Memories
	held    []*mdstore.Memory // the records of a listing already read (WindowOf)
	// Invalid are the files of the query's folders that could not be
	// read, as List reports them.
	Invalid []*mdstore.InvalidFile
}

// WindowOf is a window of the records of a listing already read.
func WindowOf(res *mdstore.MemoryList) *Window {
	return &Window{held: res.Memories, Invalid: res.Invalid}
}

// Len is how many records the window holds.
func (w *Window) Len() int {
	if w.l == nil {
		return len(w.held)
	}
	return len(w.entries)
}

// Memories are the records from i to j (0 ≤ i ≤ j ≤ Len), light as
// List's; a window of a listing read (WindowOf) hands out its own, which
// are not to be changed.
func (w *Window) Memories(i, j int) []*mdstore.Memory {
	if w.l == nil {
		return w.held[i:j]
	}
	w.l.run.Lock()
	defer w.l.run.Unlock()
	out := make([]*mdstore.Memory, 0, j-i)
	for _, e := range w.entries[i:j] {
		m, err := e.memory() // checked when the window was made: not expected to fail
		if err != nil {
			if !e.dead { // the path holds this entry still: ListDelta reports it
				w.l.undecodable[e.rel] = mdstore.InvalidFileOf(e.rel, err)
			}
			continue
		}
		out = append(out, m)
	}
	return out
}

// window is the Window of q from the records held. A record is unpacked
// once, the first time a window holds it, to leave out (and report, as
// answer does) one whose packed fields are damaged; a record read from
// its file is packed whole and needs no check.
func (l *Memories) window(q mdstore.MemoryQuery) *Window {
	w := &Window{l: l}
	var bad []*mdstore.InvalidFile
	if sel, ok := l.selected(q); ok {
		w.entries = make([]*liveEntry, 0, len(sel))
		for _, e := range sel {
			if !e.checked {
				if _, err := e.memory(); err != nil {
					inv := mdstore.InvalidFileOf(e.rel, err)
					l.undecodable[e.rel] = inv
					bad = append(bad, inv)
					continue
				}
				e.checked = true
			}
			w.entries = append(w.entries, e)
		}
	}
	w.Invalid = append(l.invalidOf(q), bad...)
	return w
}
