package playbook

import (
	"fmt"
	"time"

	"github.com/curator-dev/curator/curate/similar"
	"github.com/curator-dev/curator/internal/parallel"
	"github.com/curator-dev/curator/mdstore"
)

// lazyBullets are the bullets a playbook knows from the store's bullet
// index only: every frontmatter field, but no content yet. A bullet is read
// from its file the first time a run needs its text or changes it, so a
// run reads the files of candidate bullets only.
type lazyBullets struct {
	store *mdstore.Store
	// sums are the bullet index's summaries in the order of the
	// playbook's bullets as read (bulletSet.base); a bullet whose Doc is
	// still nil has not been read.
	sums  []*mdstore.BulletSummary
	lex   *similar.Lexical
	words []string            // the bullet index's words
	vocab *similar.Vocabulary // words analysed, when a matcher needs them
	err   error
	// token names a category's bullets as the bullet index holds them (0:
	// no name; mdstore.IndexedBullets.CategoryToken).
	token func(category string) uint64
	// failed are the bullets whose file could not be read when needed.
	failed map[*mdstore.Bullet]bool
	// tokens is the token estimate of the active bullets not read yet.
	tokens int
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
func (p *Playbook) summary(b *mdstore.Bullet) *mdstore.BulletSummary {
	if p.lazy == nil || b.Doc != nil || b.Path == "" || p.lazy.failed[b] {
		return nil
	}
	i, ok := p.bullets.find(b.ID)
	if !ok || p.bullets.base[i] != b {
		return nil
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
	p.took(sum, full, err)
}

// took puts what reading a bullet's file gave in place of its summary.
func (p *Playbook) took(sum *mdstore.BulletSummary, full *mdstore.Bullet, err error) {
	l := p.lazy
	if sum.IsActive {
		l.tokens -= tokens(sum.ContentLen)
	}
	if err != nil {
		if l.err == nil {
			l.err = fmt.Errorf("bullet %s changed while curator read the playbook: %w", sum.ID, err)
		}
		if l.failed == nil {
			l.failed = map[*mdstore.Bullet]bool{}
		}
		l.failed[sum.Bullet] = true // not read again
		return
	}
	*sum.Bullet = *full
}

// loadIndexed builds the playbook from the bullet index, which the lexical
// engine's analysis keeps up to date; nil when the engine is another one
// (its matcher needs every text).
func loadIndexed(s *mdstore.Store, e similar.Engine, now time.Time, readOnly bool) (*Playbook, []*mdstore.InvalidFile, error) {
	lex, ok := e.(*similar.Lexical)
	if !ok {
		return nil, nil, nil
	}
	ib, err := s.IndexedBullets(mdstore.Analyser{Version: lex.Version(), Words: lex.Words})
	if err != nil {
		return nil, nil, err
	}
	list := ib.List()
	var ids *mdstore.IDAllocator // a playbook that only answers allocates no id
	var bad []*mdstore.InvalidFile
	if readOnly {
		_, bad, err = s.ReadMergeLogs() // its unreadable lines are reported all the same
	} else {
		var known []string
		known, bad, err = s.KnownBulletIDs(list)
		ids = mdstore.NewIDAllocator(s.Config.IDPrefixes, known...)
	}
	if err != nil {
		return nil, nil, err
	}
	// ids observed every bullet's id already (known holds them).
	sums, sorted := mergeByID(ib.Active, ib.Archived)
	bullets := make([]*mdstore.Bullet, len(sums))
	for i, sum := range sums {
		bullets[i] = sum.Bullet
	}
	pb := newPlaybook(bullets, sorted, nil, nil, now)
	pb.IDs = ids
	if readOnly {
		pb.IDs = mdstore.NewIDAllocator(s.Config.IDPrefixes)
	}
	pb.Secrets = s.Secrets()
	l := &lazyBullets{store: s, lex: lex, words: ib.Words, token: ib.CategoryToken}
	if sorted {
		l.sums = sums
	} else { // an id twice: the bullets are held in another order
		l.sums = make([]*mdstore.BulletSummary, len(pb.bullets.base))
		by := make(map[*mdstore.Bullet]*mdstore.BulletSummary, len(sums))
		for _, sum := range sums {
			by[sum.Bullet] = sum
		}
		for i, b := range pb.bullets.base {
			l.sums[i] = by[b]
		}
	}
	for _, sum := range l.sums {
		if sum != nil && sum.IsActive {
			l.tokens += tokens(sum.ContentLen)
		}
	}
	pb.lazy = l
	if sorted {
		pb.sortedActive = list.Active // sorted by id, each its playbook's own
	}
	return pb, append(list.Invalid, bad...), nil
}

// mergeByID merges two lists sorted by id into one; sorted is false when
// an id is in both (or twice in one): then out holds them all, by id.
func mergeByID(a, b []*mdstore.BulletSummary) (out []*mdstore.BulletSummary, sorted bool) {
	out = make([]*mdstore.BulletSummary, 0, len(a)+len(b))
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
	var todo []*mdstore.BulletSummary
	for _, b := range p.bullets.base {
		if sum := p.summary(b); sum != nil {
			todo = append(todo, sum)
		}
	}
	full := make([]*mdstore.Bullet, len(todo))
	errs := make([]error, len(todo))
	parallel.For(len(todo), func(i int) {
		full[i], errs[i] = p.lazy.store.ReadBullet(todo[i].Path)
	})
	for i, sum := range todo {
		p.took(sum, full[i], errs[i])
	}
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
