package playbook

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/curator-dev/curator/curate/playbook/bulletid"
	"github.com/curator-dev/curator/curate/similar"
	"github.com/curator-dev/curator/internal/parallel"
	"github.com/curator-dev/curator/mdstore"
	"github.com/curator-dev/curator/mdstore/cache"
)

// lazyBullets are the bullets a playbook knows from the store's bullet
// index only: what a run looks at for every bullet in the summaries, the
// rest of the frontmatter decoded when a bullet is first asked, and no
// content yet. A bullet is read from its file the first time a run needs
// its text or changes it, so a run reads the files of candidate bullets
// only.
type lazyBullets struct {
	store *mdstore.Store
	// sums are the bullet index's summaries in the order of the
	// playbook's bullets as read (bulletSet.keys); a bullet whose Doc is
	// still nil has not been read.
	sums  []*cache.BulletSummary
	lex   *similar.Lexical
	words []string            // the bullet index's words
	vocab *similar.Vocabulary // words analysed, when a matcher needs them
	err   error
	// token names a category's bullets as the bullet index holds them (0:
	// no name; cache.IndexedBullets.CategoryToken).
	token func(category string) uint64
	// failed are the bullets whose file could not be read when needed.
	failed map[*mdstore.Bullet]bool
	// shared are the files left out because another file has their id
	// (mdstore.UniqueIDs), reported by every answer from this listing.
	shared []*mdstore.InvalidFile
	// listing is the bullet index's listing the playbook was read from
	// (a warm playbook asks it whether the folders changed since).
	listing *cache.IndexedBullets
	// readOrder are the positions in the playbook's bullets (bulletSet.base)
	// of those read from their files, in the order read (forgetReads).
	readOrder []int32
	// readAll: every bullet was read (ReadAll), or every active one (a
	// search's last resort without a category or tags), so the playbook
	// keeps them all (forgetReads).
	readAll bool
}

// vocabulary analyses the index's words once.
func (l *lazyBullets) vocabulary() *similar.Vocabulary {
	if l.vocab == nil {
		l.vocab = l.lex.Vocabulary(l.words)
	}
	return l.vocab
}

// summary is the bullet index's summary of b when b is a bullet of the
// playbook as read and was not read yet; nil otherwise.
func (p *Playbook) summary(b *mdstore.Bullet) *cache.BulletSummary {
	if p.lazy == nil || b.Doc != nil || b.Path == "" || p.lazy.failed[b] {
		return nil
	}
	i, ok := p.bullets.find(b.ID)
	if !ok || p.bullets.base[i] != b {
		return nil
	}
	return p.lazy.sums[i]
}

// unmade is the summary of base's bullet i when that bullet was neither
// made nor replaced yet (nil otherwise): what a run knows of it without
// decoding it.
func (p *Playbook) unmade(i int) *cache.BulletSummary {
	if p.lazy == nil || p.bullets.base[i] != nil {
		return nil
	}
	if len(p.bullets.added) > 0 {
		if _, replaced := p.bullets.added[p.bullets.keys[i]]; replaced {
			return nil
		}
	}
	return p.lazy.sums[i]
}

// read fills b (a bullet of the playbook) from its file when it was not
// read yet. A file that cannot be read any more stops the run (Err).
func (p *Playbook) read(b *mdstore.Bullet) {
	sum := p.summary(b)
	if sum == nil {
		return
	}
	full, err := p.lazy.store.ReadBullet(sum.Path)
	p.took(b, full, err)
}

// took puts what reading a bullet's file gave in place of b (a bullet of
// the playbook as read), and notes it read (forgetReads).
func (p *Playbook) took(b, full *mdstore.Bullet, err error) {
	l := p.lazy
	if err != nil {
		if l.err == nil {
			l.err = fmt.Errorf("bullet %s changed while curator read the playbook: %w", b.ID, err)
		}
		if l.failed == nil {
			l.failed = map[*mdstore.Bullet]bool{}
		}
		l.failed[b] = true // not read again
		return
	}
	*b = *full
	if i, ok := p.bullets.find(b.ID); ok {
		l.readOrder = append(l.readOrder, int32(i))
	}
}

// loadIndexed builds the playbook from the bullet index, which the lexical
// engine's analysis keeps up to date; nil when the engine is another one
// (its matcher needs every text).
func loadIndexed(s *mdstore.Store, e similar.Engine, now time.Time, readOnly bool) (*Playbook, []*mdstore.InvalidFile, error) {
	lex, ok := e.(*similar.Lexical)
	if !ok {
		return nil, nil, nil
	}
	ib, err := cache.Bullets(s, cache.Analyser{Version: lex.Version(), Words: lex.Words})
	if err != nil {
		return nil, nil, err
	}
	var ids *bulletid.Allocator // a playbook that only answers allocates no id
	var bad []*mdstore.InvalidFile
	if readOnly {
		_, bad, err = cache.MergeLogIDs(s) // its unreadable lines are reported all the same
		ids = bulletid.NewAllocator(s.Config.IDPrefixes)
	} else {
		var known []string
		known, bad, err = bulletid.KnownIndexed(s, ib)
		ids = bulletid.NewAllocator(s.Config.IDPrefixes, known...)
	}
	if err != nil {
		return nil, nil, err
	}
	invalid := append(ib.Invalid, bad...)
	sums, sorted := mergeByID(ib.Active, ib.Archived)
	var shared []*mdstore.InvalidFile
	var sharedIDs []string
	var sharing []*mdstore.Bullet // the files of sharedIDs, read
	// An id in two files: neither is the playbook's.
	if !sorted {
		all := append(append([]*cache.BulletSummary(nil), ib.Active...), ib.Archived...)
		slices.SortStableFunc(all, func(a, b *cache.BulletSummary) int { return strings.Compare(a.ID, b.ID) })
		sums, shared, sharedIDs = mdstore.UniqueIDs(all, func(b *cache.BulletSummary) string { return b.ID }, func(b *cache.BulletSummary) string { return b.Path })
		invalid = append(invalid, shared...)
		for _, sum := range all {
			if slices.Contains(sharedIDs, sum.ID) {
				if b, err := s.ReadBullet(sum.Path); err == nil {
					sharing = append(sharing, b)
				}
			}
		}
	}
	keys := make([]string, len(sums))
	for i, sum := range sums {
		keys[i] = sum.ID
	}
	pb := &Playbook{
		Now: now.UTC(), IDs: ids, bullets: newLazyBulletSet(keys, func(i int) *mdstore.Bullet { return sums[i].Bullet() }),
		origPath: map[string]string{}, touched: map[string]bool{}, active: map[string]int{},
		Secrets: s.Secrets(), sharedIDs: sharedIDs, sharing: sharing,
		lazy: &lazyBullets{store: s, sums: sums, lex: lex, words: ib.Words, token: ib.CategoryToken, listing: ib, shared: shared},
	}
	for _, sum := range sums {
		if sum.IsActive {
			pb.active[sum.Category]++
		}
	}
	return pb, invalid, nil
}

// mergeByID merges two lists sorted by id into one; sorted is false when
// an id is in both (or twice in one): then out holds them all, by id.
func mergeByID(a, b []*cache.BulletSummary) (out []*cache.BulletSummary, sorted bool) {
	out = make([]*cache.BulletSummary, 0, len(a)+len(b))
	for len(a) > 0 || len(b) > 0 {
		switch {
		case len(b) == 0 || len(a) > 0 && a[0].ID < b[0].ID:
			out, a = append(out, a[0]), a[1:]
		default:
			out, b = append(out, b[0]), b[1:]
		}
	}
	for i := 1; i < len(out); i++ {
		if out[i-1].ID >= out[i].ID {
			return out, false
		}
	}
	return out, true
}

// ReadAll reads every bullet that is known from the bullet index only
// (maintenance compares every text), on every core.
func (p *Playbook) ReadAll() {
	if p.lazy == nil {
		return
	}
	var all []*mdstore.Bullet
	for i := range p.bullets.keys {
		if _, replaced := p.bullets.added[p.bullets.keys[i]]; !replaced {
			all = append(all, p.bullets.at(i))
		}
	}
	p.readBullets(all)
	p.lazy.readAll = true
}

// readBullets reads the bullets of bs (bullets of the playbook) that are
// known from the bullet index only, on every core.
func (p *Playbook) readBullets(bs []*mdstore.Bullet) {
	if p.lazy == nil {
		return
	}
	var todo []*mdstore.Bullet
	var paths []string
	for _, b := range bs {
		if sum := p.summary(b); sum != nil {
			todo, paths = append(todo, b), append(paths, sum.Path)
		}
	}
	full := make([]*mdstore.Bullet, len(todo))
	errs := make([]error, len(todo))
	parallel.For(len(todo), func(i int) {
		full[i], errs[i] = p.lazy.store.ReadBullet(paths[i])
	})
	for i, b := range todo {
		p.took(b, full[i], errs[i])
	}
}

// forgetReads lets go of the bullets read from their files, all but about
// the keep read last (at least three quarters of keep), when more than keep
// were: each is known from the bullet index again, and read again when
// next needed. A playbook that was read whole (a query that needs every
// text: ReadAll) keeps them all, so that the next such query does not read
// every file again. Only for a playbook that answers queries and changes
// nothing (Warm): a bullet a run changed must stay as it is.
func (p *Playbook) forgetReads(keep int) {
	l := p.lazy
	if l == nil || l.readAll || len(l.readOrder) <= keep {
		return
	}
	drop := len(l.readOrder) - max(keep*3/4, 0)
	for _, i := range l.readOrder[:drop] {
		if b := p.bullets.base[i]; b != nil && b.Doc != nil && !l.failed[b] {
			p.bullets.base[i] = nil
			l.sums[i].DropBullet() // the summary made b, which reading filled
		}
	}
	l.readOrder = append(l.readOrder[:0], l.readOrder[drop:]...)
	p.sortedActive = nil // it may hold the bullets let go of
}

// Err is the first bullet file that could not be read when the run needed
// it (the bullet index listed it, then it changed); nil when none.
func (p *Playbook) Err() error {
	if p.lazy == nil {
		return nil
	}
	return p.lazy.err
}

// unread reports whether b is known from the bullet index only: such a
// bullet has a file but no parsed document yet.
func (p *Playbook) unread(b *mdstore.Bullet) bool {
	return p.summary(b) != nil
}
