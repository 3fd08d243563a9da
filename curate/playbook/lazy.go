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
	store  *mdstore.Store
	unread map[string]*mdstore.BulletSummary // by id; gone once read
	lex    *similar.Lexical
	words  []string            // the bullet index's words
	vocab  *similar.Vocabulary // words analysed, when a matcher needs them
	err    error
	// tokens is the token estimate of the active bullets not read yet.
	tokens int
}

// forget drops a bullet from the unread ones: it is being read.
func (l *lazyBullets) forget(sum *mdstore.BulletSummary) {
	delete(l.unread, sum.ID)
	if sum.IsActive {
		l.tokens -= tokens(sum.ContentLen)
	}
}

// vocabulary analyses the index's words once.
func (l *lazyBullets) vocabulary() *similar.Vocabulary {
	if l.vocab == nil {
		l.vocab = l.lex.Vocabulary(l.words)
	}
	return l.vocab
}

// read fills b (a bullet of the playbook) from its file when it was not
// read yet. A file that cannot be read any more stops the run (Err).
func (l *lazyBullets) read(b *mdstore.Bullet) {
	sum := l.unread[b.ID]
	if sum == nil {
		return
	}
	l.forget(sum)
	full, err := l.store.ReadBullet(sum.Path)
	if err != nil {
		if l.err == nil {
			l.err = fmt.Errorf("bullet %s changed while curator read the playbook: %w", b.ID, err)
		}
		return
	}
	*b = *full
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
	known, bad, err := s.KnownBulletIDs(list)
	if err != nil {
		return nil, nil, err
	}
	var ids *mdstore.IDAllocator // a playbook that only answers allocates no id
	if !readOnly {
		ids = mdstore.NewIDAllocator(s.Config.IDPrefixes, known...)
	}
	// ids observed every bullet's id already (known holds them).
	pb := newPlaybook(list.All(), nil, nil, now, false)
	pb.IDs = ids
	if readOnly {
		pb.IDs = mdstore.NewIDAllocator(s.Config.IDPrefixes)
	}
	pb.Secrets = s.Secrets()
	l := &lazyBullets{store: s, lex: lex, words: ib.Words, unread: make(map[string]*mdstore.BulletSummary, len(ib.Active)+len(ib.Archived))}
	for _, group := range [][]*mdstore.BulletSummary{ib.Active, ib.Archived} {
		for _, sum := range group {
			if pb.bullets[sum.ID] == sum.Bullet {
				l.unread[sum.ID] = sum
				if sum.IsActive {
					l.tokens += tokens(sum.ContentLen)
				}
			}
		}
	}
	pb.lazy = l
	if len(l.unread) == len(list.Active)+len(list.Archived) {
		pb.sortedActive = list.Active // sorted by id, each its playbook's own
	}
	return pb, append(list.Invalid, bad...), nil
}

// ReadAll reads every bullet that is known from the bullet index only
// (maintenance compares every text), on every core.
func (p *Playbook) ReadAll() {
	if p.lazy == nil || len(p.lazy.unread) == 0 {
		return
	}
	var todo []*mdstore.Bullet
	for id := range p.lazy.unread {
		todo = append(todo, p.bullets[id])
	}
	mdstore.SortBullets(todo)
	full := make([]*mdstore.Bullet, len(todo))
	errs := make([]error, len(todo))
	parallel.For(len(todo), func(i int) {
		full[i], errs[i] = p.lazy.store.ReadBullet(p.lazy.unread[todo[i].ID].Path)
	})
	for i, b := range todo {
		p.lazy.forget(p.lazy.unread[b.ID])
		if errs[i] != nil {
			if p.lazy.err == nil {
				p.lazy.err = fmt.Errorf("bullet %s changed while curator read the playbook: %w", b.ID, errs[i])
			}
			continue
		}
		*b = *full[i]
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
	return p.lazy != nil && b.Doc == nil && b.Path != ""
}
