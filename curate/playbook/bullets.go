package playbook

import (
	"slices"
	"strings"

	"github.com/curator-dev/curator/mdstore"
)

// bulletSet is every bullet of a playbook by id: the bullets it was read
// with, in one slice sorted by id and found by binary search, and the
// bullets that actions added or replaced since, in a map. A playbook of
// 100,000 bullets is read on every run; a map of all of them would be built
// each time for the few bullets a run looks up.
type bulletSet struct {
	base  []*mdstore.Bullet          // sorted by id, each id once
	added map[string]*mdstore.Bullet // replaces base's bullet of the same id
	n     int                        // distinct ids
}

// newBulletSet holds bullets; when two have the same id, the later one is
// kept (as a map would keep it). sorted says bullets are sorted by id with
// no id twice, so they are held as they are.
func newBulletSet(bullets []*mdstore.Bullet, sorted bool) *bulletSet {
	s := &bulletSet{added: map[string]*mdstore.Bullet{}}
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
	s.base, s.n = bullets, len(bullets)
	return s
}

// find is the position of id in base (found or not).
func (s *bulletSet) find(id string) (int, bool) {
	return slices.BinarySearchFunc(s.base, id, func(b *mdstore.Bullet, id string) int { return strings.Compare(b.ID, id) })
}

// get returns the bullet of an id, or nil.
func (s *bulletSet) get(id string) *mdstore.Bullet {
	if b, ok := s.added[id]; ok {
		return b
	}
	if i, ok := s.find(id); ok {
		return s.base[i]
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

// each calls f with every bullet, in no particular order.
func (s *bulletSet) each(f func(b *mdstore.Bullet)) {
	for _, b := range s.base {
		if _, replaced := s.added[b.ID]; !replaced {
			f(b)
		}
	}
	for _, b := range s.added {
		f(b)
	}
}
