package similar

import "sync"

// matches holds, for one pair of texts, how similar each word of the
// first is to each word of the second by meaning alone (WordNet concepts
// and word vectors; exact matches are directions' own). Instead of
// comparing every two words' concept lists and neighbour lists, the
// second text's concepts and vectors are put in small hash tables and
// each word of the first looks up only its own concepts and neighbours:
// the cost grows with the words' concepts, not with their product.
type matches struct {
	sim  []float64 // sim[i*nb+j]: word i of a against word j of b
	nb   int
	byID idTable // b's concepts
	dist []int8  // by occurrence in byID: the concept's distance
	vecs idTable // b's word vectors
}

var matchesPool = sync.Pool{New: func() any { return new(matches) }}

// meaningMatches fills a pooled matches for a and b; put it back with
// release.
func (l *Lexical) meaningMatches(a, b *doc) *matches {
	m := matchesPool.Get().(*matches)
	m.nb = len(b.terms)
	n := len(a.terms) * m.nb
	if cap(m.sim) < n {
		m.sim = make([]float64, n)
	}
	m.sim = m.sim[:n]
	clear(m.sim)

	m.dist = m.byID.conceptsOf(b, m.dist)
	m.vecs.reset(len(b.terms))
	for j := range b.terms {
		if u := &b.terms[j]; u.vec >= 0 {
			m.vecs.add(u.vec, int32(j))
		}
	}

	for i := range a.terms {
		t := &a.terms[i]
		row := m.sim[i*m.nb : (i+1)*m.nb]
		if t.vec >= 0 {
			for _, n := range t.near {
				for k := m.vecs.first(n); k >= 0; k = m.vecs.next[k] {
					u := &b.terms[m.vecs.val[k]]
					if s := l.neighbourSim(t.wordInfo, u.vec, u.vecInv); s > row[m.vecs.val[k]] {
						row[m.vecs.val[k]] = s
					}
				}
			}
		}
		for _, c := range t.concepts {
			for k := m.byID.first(c.id); k >= 0; k = m.byID.next[k] {
				if s := l.conceptSim[c.dist+m.dist[k]]; s > row[m.byID.val[k]] {
					row[m.byID.val[k]] = s
				}
			}
		}
	}
	return m
}

func (m *matches) release() { matchesPool.Put(m) }

// queryMatches is one text's side of meaningMatches made once, for a
// query scored against many items: its concepts, and the vectors its
// words neighbour, each in a hash table from the id to its words. An item
// then looks up its own concepts and vectors, and the pairs found, and so
// the similarities, are the ones meaningMatches finds.
type queryMatches struct {
	byID idTable // the query's concepts -> its words
	dist []int8  // by occurrence in byID: the concept's distance
	near idTable // the vectors its words neighbour -> those words
}

// newQueryMatches makes a's side of meaningMatches.
func newQueryMatches(a *doc) *queryMatches {
	qm := &queryMatches{}
	qm.dist = qm.byID.conceptsOf(a, nil)
	near := 0
	for i := range a.terms {
		if a.terms[i].vec >= 0 {
			near += len(a.terms[i].near)
		}
	}
	qm.near.reset(near)
	for i := range a.terms {
		if t := &a.terms[i]; t.vec >= 0 {
			for _, n := range t.near {
				qm.near.add(n, int32(i))
			}
		}
	}
	return qm
}

// meaningMatchesOf is meaningMatches(a, b) for a whose side qm holds.
func (l *Lexical) meaningMatchesOf(qm *queryMatches, a, b *doc) *matches {
	m := matchesPool.Get().(*matches)
	nb := len(b.terms)
	m.nb = nb
	n := len(a.terms) * nb
	if cap(m.sim) < n {
		m.sim = make([]float64, n)
	}
	m.sim = m.sim[:n]
	clear(m.sim)
	for j := range b.terms {
		u := &b.terms[j]
		if u.vec >= 0 {
			for k := qm.near.first(u.vec); k >= 0; k = qm.near.next[k] {
				i := int(qm.near.val[k])
				if s := l.neighbourSim(a.terms[i].wordInfo, u.vec, u.vecInv); s > m.sim[i*nb+j] {
					m.sim[i*nb+j] = s
				}
			}
		}
		for _, c := range u.concepts {
			for k := qm.byID.first(c.id); k >= 0; k = qm.byID.next[k] {
				i := int(qm.byID.val[k])
				if s := l.conceptSim[qm.dist[k]+c.dist]; s > m.sim[i*nb+j] {
					m.sim[i*nb+j] = s
				}
			}
		}
	}
	return m
}

// idTable is an open-addressing hash table from an id to the values
// added under it, each id's values chained from the newest.
type idTable struct {
	slots []int32 // the newest entry of an id, -1: empty
	key   []int32 // by entry
	val   []int32
	next  []int32 // the entry added before it under the same id, -1: none
	mask  int
}

func (t *idTable) reset(n int) {
	size := 8
	for size < 2*n {
		size *= 2
	}
	if cap(t.slots) < size {
		t.slots = make([]int32, size)
	}
	t.slots = t.slots[:size]
	for i := range t.slots {
		t.slots[i] = -1
	}
	t.mask = size - 1
	t.key, t.val, t.next = t.key[:0], t.val[:0], t.next[:0]
}

func (t *idTable) slot(id int32) int {
	h := int(uint32(id)*0x9e3779b1) & t.mask
	for {
		e := t.slots[h]
		if e < 0 || t.key[e] == id {
			return h
		}
		h = (h + 1) & t.mask
	}
}

func (t *idTable) add(id, v int32) {
	h := t.slot(id)
	t.key = append(t.key, id)
	t.val = append(t.val, v)
	t.next = append(t.next, t.slots[h])
	t.slots[h] = int32(len(t.key) - 1)
}

// conceptsOf puts the concepts of d's words in t (made empty first), each
// under its id with its word's place, and returns their distances by
// entry, in dist[:0].
func (t *idTable) conceptsOf(d *doc, dist []int8) []int8 {
	size := 0
	for i := range d.terms {
		size += len(d.terms[i].concepts)
	}
	t.reset(size)
	dist = dist[:0]
	for i := range d.terms {
		for _, c := range d.terms[i].concepts {
			t.add(c.id, int32(i))
			dist = append(dist, c.dist)
		}
	}
	return dist
}

// first is the newest entry under id, -1 when none; next[e] is the one
// before e.
func (t *idTable) first(id int32) int32 {
	return t.slots[t.slot(id)]
}
