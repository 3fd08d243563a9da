package mcpcmd

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"sync"
	"time"

	"github.com/curator-dev/curator/curate/memory"
	"github.com/curator-dev/curator/mdstore"
)

// A listing is every entry of one list_entries query, read at one time.
type listing struct {
	token   string
	at      time.Time
	used    time.Time
	key     string
	entries []memory.Entry
	invalid []string
}

// snapshots keep the listings that list_entries pages through.
//
// The memory-curate procedure pages a window in 100s (offset 0, 100, 200,
// …) and only then acts; meanwhile other agents may move entries. So the
// call at offset 0 reads the whole window once and keeps it as a snapshot
// (its token is returned); a later page of the same query, with that
// token or with none, is cut from the same snapshot. Every entry of the
// window at that moment is returned exactly once, in (ingestion_time, id)
// order, whatever moves in between. A snapshot lives for snapshotLife
// after its last use; the newest maxSnapshots are kept. A page asked for
// an unknown or expired token is an error saying to start again at
// offset 0. A page past offset 0 without a token and without a snapshot
// of its query reads a fresh listing.
type snapshots struct {
	mu     sync.Mutex
	byTok  map[string]*listing
	latest map[string]*listing // by query
}

const (
	snapshotLife = 10 * time.Minute
	maxSnapshots = 64
)

func newSnapshots() *snapshots {
	return &snapshots{byTok: map[string]*listing{}, latest: map[string]*listing{}}
}

// page returns the listing to cut a page from.
func (p *snapshots) page(q mdstore.MemoryQuery, offset int, token string, read func() (*listing, error)) (*listing, error) {
	key := queryKey(q)
	now := time.Now()
	p.mu.Lock()
	p.expire(now)
	switch {
	case token != "":
		l, ok := p.byTok[token]
		if !ok || l.key != key {
			p.mu.Unlock()
			return nil, fmt.Errorf("invalid arguments: snapshot %q is unknown or expired for this query (snapshots live %v): list again from offset 0", token, snapshotLife)
		}
		l.used = now
		p.mu.Unlock()
		return l, nil
	case offset > 0:
		if l, ok := p.latest[key]; ok {
			l.used = now
			p.mu.Unlock()
			return l, nil
		}
	}
	p.mu.Unlock()
	l, err := read()
	if err != nil {
		return nil, err
	}
	l.key, l.used, l.token = key, now, newToken()
	p.mu.Lock()
	defer p.mu.Unlock()
	p.byTok[l.token] = l
	p.latest[key] = l
	return l, nil
}

// expire drops snapshots unused for snapshotLife, and the oldest beyond
// maxSnapshots.
func (p *snapshots) expire(now time.Time) {
	for tok, l := range p.byTok {
		if now.Sub(l.used) > snapshotLife {
			p.drop(tok, l)
		}
	}
	for len(p.byTok) >= maxSnapshots {
		var oldest *listing
		for _, l := range p.byTok {
			if oldest == nil || l.used.Before(oldest.used) {
				oldest = l
			}
		}
		p.drop(oldest.token, oldest)
	}
}

func (p *snapshots) drop(tok string, l *listing) {
	delete(p.byTok, tok)
	if p.latest[l.key] == l {
		delete(p.latest, l.key)
	}
}

func queryKey(q mdstore.MemoryQuery) string {
	return fmt.Sprintf("%s|%s|%s|%s", q.Status, q.Type, q.From.Format(time.RFC3339Nano), q.To.Format(time.RFC3339Nano))
}

func newToken() string {
	b := make([]byte, 9)
	rand.Read(b)
	return hex.EncodeToString(b)
}
