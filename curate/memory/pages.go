package memory

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/curator-dev/curator/internal/refuse"
	"github.com/curator-dev/curator/mdstore"
	"github.com/curator-dev/curator/mdstore/cache"
	"github.com/curator-dev/curator/mdstore/live"
)

// Pages are the pages of memory listings that a long-lived server (the
// MCP server's list_entries) hands out: each listing read once, from the
// store's live memory listing when it is open, kept as a snapshot that
// later pages are cut from.
type Pages struct {
	dir   string
	snaps *snapshots
	live  *liveListing
}

// OpenPages starts opening the live memory listing of the store in dir,
// in the background; Close stops it.
func OpenPages(dir string) *Pages {
	return &Pages{dir: dir, snaps: newSnapshots(), live: openLive(dir)}
}

// Close stops following the store's files.
func (p *Pages) Close() { p.live.close() }

// Live is the store's live memory listing, nil until it is open (or
// when it could not be).
func (p *Pages) Live() *live.Memories { return p.live.get() }

// PageRequest is one page of a listing: the query (the window, status
// and type), where the page starts and how long it is (0: DefaultPage),
// and the snapshot of an earlier page ("" at offset 0: a new one).
type PageRequest struct {
	Query         mdstore.MemoryQuery
	Offset, Limit int
	Snapshot      string
	// IncludeBody reads each entry's body now, from where it is now.
	IncludeBody bool
}

// DefaultPage is how many entries a page holds unless told; MaxPage the
// most a page may hold.
const (
	DefaultPage = 100
	MaxPage     = 1000
)

// Check refuses a page of no status (a listing pages one folder), an
// unknown status or type (as ListRequest.Check), and a page out of
// bounds: a limit of 1 to MaxPage (0 is DefaultPage), an offset of at
// least 0.
func (r PageRequest) Check() error {
	if r.Query.Status == "" {
		return refuse.Requestf("status is missing: want one of %s", strings.Join(mdstore.MemoryStatuses, ", "))
	}
	if err := (ListRequest{Query: r.Query}).Check(); err != nil {
		return err
	}
	if r.Limit < 0 || r.Limit > MaxPage || r.Offset < 0 {
		return refuse.Requestf("limit must be 1 to %d and offset at least 0 (got %d, %d)", MaxPage, r.Limit, r.Offset)
	}
	return nil
}

// Page is one page of a listing, as list_entries answers it.
type Page struct {
	Entries []PageEntry `json:"entries"`
	// Offset and Limit are where the page starts and how long it may be.
	Offset int `json:"offset"`
	Limit  int `json:"limit"`
	// Total is how many entries the listing holds.
	Total int `json:"total"`
	// Snapshot names the listing, TakenAt when it was read; Invalid are
	// the files it could not read.
	Snapshot string    `json:"snapshot"`
	TakenAt  time.Time `json:"taken_at"`
	Invalid  []string  `json:"invalid"`
}

// PageEntry is an entry of a page: its fields, and its body only when
// asked for (nil when the entry is gone).
type PageEntry struct {
	Entry
	Body *string `json:"body,omitempty"`
}

// Page returns a page of the listing of req.Query (see snapshots).
func (p *Pages) Page(req PageRequest) (*Page, error) {
	if err := req.Check(); err != nil {
		return nil, err
	}
	if req.Limit == 0 {
		req.Limit = DefaultPage
	}
	snap, err := p.snaps.page(req.Query, req.Offset, req.Snapshot, func() (*listing, error) { return p.listing(req.Query) })
	if err != nil {
		return nil, err
	}
	total := snap.win.Len()
	start := min(req.Offset, total)
	end := start + min(req.Limit, total-start) // no sum past the largest int
	pg := &Page{Entries: make([]PageEntry, 0, end-start), Offset: req.Offset, Limit: req.Limit, Total: total, Snapshot: snap.token, TakenAt: snap.at, Invalid: snap.invalid}
	for _, m := range snap.win.Memories(start, end) {
		e := PageEntry{Entry: NewEntry(m)}
		if req.IncludeBody {
			e.Body = p.body(e.ID)
		}
		pg.Entries = append(pg.Entries, e)
	}
	return pg, nil
}

// listing takes the window of a query, whose entries a page shows as
// `memory list --json` does: from the live listing (waiting for it while
// it opens), which keeps it as references to the records it holds, or
// from the files when it could not be opened.
func (p *Pages) listing(q mdstore.MemoryQuery) (l *listing, err error) {
	var win *live.Window
	if held := p.live.get(); held != nil {
		if win, err = held.ListWindow(q); err != nil {
			return nil, err
		}
	} else {
		st, err := mdstore.Open(p.dir)
		if err != nil {
			return nil, err
		}
		res, err := cache.ListMemories(st, q)
		if err != nil {
			return nil, err
		}
		win = live.WindowOf(res)
	}
	l = &listing{at: time.Now().UTC(), win: win, invalid: []string{}}
	for _, inv := range win.Invalid {
		l.invalid = append(l.invalid, inv.Error())
	}
	return l, nil
}

// body is an entry's body, read now (from where the entry is now; nil
// when it is gone).
func (p *Pages) body(id string) *string {
	st, err := mdstore.Open(p.dir)
	if err != nil {
		return nil
	}
	m, err := st.FindMemory(id)
	if err != nil {
		return nil
	}
	b := m.Body()
	return &b
}

// A listing is every entry of one query, read at one time.
type listing struct {
	token   string
	at      time.Time
	used    time.Time
	key     string
	win     *live.Window
	invalid []string
}

// snapshots keep the listings that pages are cut from.
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
			return nil, refuse.Requestf("snapshot %q is unknown or expired for this query (snapshots live %v): list again from offset 0", token, snapshotLife)
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
