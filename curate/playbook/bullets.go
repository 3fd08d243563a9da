package playbook

import (
	"slices"
	"strings"

	"github.com/curator-dev/curator/mdstore"
)

// bulletSet is every bullet of a playbook by id: the bullets it was read
// with, by their ids in one sorted slice found by binary search (each
// bullet made only when first asked, for a playbook read from the bullet
// index), and the bullets that actions added or replaced since, in a map.
// A playbook of 100,000 bullets is read on every run; a map of all of them,
// or all of them decoded, would be built each time for the few bullets a
// run looks up.
type bulletSet struct {
	keys  []string                    // the ids of base, sorted, each once
	base  []*mdstore.Bullet           // by keys; nil until made
	build func(i int) *mdstore.Bullet // makes base[i] (nil: base is complete)
	added map[string]*mdstore.Bullet  // replaces base's bullet of the same id
	n     int                         // distinct ids
}

// newBulletSet holds bullets; when two have the same id, the later one is
// kept (as a map would keep it). sorted says bullets are sorted by id with
// no id twice, so they are held as they are.
func newBulletSet(bullets []*mdstore.Bullet, sorted bool) *bulletSet {
	if !sorted {
		bullets = slices.Clone(bullets)
		slices.SortStableFunc(bullets, func(a, b *mdstore.Bullet) int { return strings.Compare(a.ID, b.ID) })
		kept := bullets[:0]
		for i, b := range bullets {
			if i+1 < len(bullets) && bullets[i+1].ID == b.ID {
				continue // a later bullet of the same id wins
			}
			kept = append(kept, b)
		}
		bullets = kept
	}
	keys := make([]string, len(bullets))
	for i, b := range bullets {
		keys[i] = b.ID
	}
	return &bulletSet{keys: keys, base: bullets, added: map[string]*mdstore.Bullet{}, n: len(bullets)}
}

// newLazyBulletSet holds bullets by their sorted ids (each once); bullet i
// is made by build(i) when first asked.
func newLazyBulletSet(keys []string, build func(i int) *mdstore.Bullet) *bulletSet {
	return &bulletSet{keys: keys, base: make([]*mdstore.Bullet, len(keys)), build: build, added: map[string]*mdstore.Bullet{}, n: len(keys)}
}

// at is base's bullet i, made when first asked.
func (s *bulletSet) at(i int) *mdstore.Bullet {
	if s.base[i] == nil {
		s.base[i] = s.build(i)
	}
	return s.base[i]
}

// find is the position of id in base (found or not).
func (s *bulletSet) find(id string) (int, bool) {
	return slices.BinarySearch(s.keys, id)
}

// get returns the bullet of an id, or nil.
func (s *bulletSet) get(id string) *mdstore.Bullet {
	if b, ok := s.added[id]; ok {
		return b
	}
	if i, ok := s.find(id); ok {
		return s.at(i)
	}
	return nil
}

// put holds b under its id, replacing the bullet that had it.
func (s *bulletSet) put(b *mdstore.Bullet) {
	if s.get(b.ID) == nil {
		s.n++
	}
	s.added[b.ID] = b
}

// len is the number of bullets.
func (s *bulletSet) len() int { return s.n }

// each calls f with every bullet (making those not made yet), in no
// particular order.
func (s *bulletSet) each(f func(b *mdstore.Bullet)) {
	for i, id := range s.keys {
		if _, replaced := s.added[id]; !replaced {
			f(s.at(i))
		}
	}
	for _, b := range s.added {
		f(b)
	}
}

// newIDs are the ids of the added bullets that replace none of base,
// sorted.
func (s *bulletSet) newIDs() []string {
	var out []string
	for id := range s.added {
		if _, ok := s.find(id); !ok {
			out = append(out, id)
		}
	}
	slices.Sort(out)
	return out
}
