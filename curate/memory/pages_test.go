package memory

import (
	"context"
	"math"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/curator-dev/curator/mdstore"
	"github.com/curator-dev/curator/mdstore/live"
)

// While the live listing is still opening, a page of a window waits for
// it (a listing of its own would state every file beside the opening) and
// then answers from it.
func TestPageOfAWindowWaitsForTheLiveListing(t *testing.T) {
	tx := txOn(t)
	for _, id := range []string{"f-a", "f-b", "f-c"} {
		if _, err := Add(context.Background(), tx, AddRequest{Record: fact(id, "brief of "+id)}); err != nil {
			t.Fatal(err)
		}
	}
	at := fact("", "").IngestionTime
	ll := &liveListing{ready: make(chan struct{})}
	p := &Pages{dir: tx.Store.Dir, snaps: newSnapshots(), live: ll}
	defer p.Close()
	done := make(chan *Page, 1)
	go func() {
		pg, err := p.Page(PageRequest{Query: mdstore.MemoryQuery{Status: "inbox", From: at, To: at.Add(time.Minute)}, Limit: 2})
		if err != nil {
			t.Error(err)
		}
		done <- pg
	}()
	select {
	case pg := <-done:
		t.Fatalf("the page did not wait for the live listing: %+v", pg)
	case <-time.After(200 * time.Millisecond):
	}
	l, err := live.Open(tx.Store)
	if err != nil {
		t.Fatal(err)
	}
	ll.l = l
	close(ll.ready)
	pg := <-done
	if pg == nil || pg.Total != 3 || len(pg.Entries) != 2 || pg.Entries[0].ID != "f-a" || pg.Entries[1].ID != "f-b" {
		t.Fatalf("page %+v", pg)
	}
}

// Pages of one window, from the live listing or from the files, give each
// entry once, in order (a record whose observation nests deeper than the
// live listing packs among them), and a page past the end, however far,
// is empty.
func TestPagesOfAWindowGiveEachEntryOnce(t *testing.T) {
	tx := txOn(t)
	for _, id := range []string{"f-a", "f-c"} {
		if _, err := Add(context.Background(), tx, AddRequest{Record: fact(id, "brief of "+id)}); err != nil {
			t.Fatal(err)
		}
	}
	deep := strings.Repeat("{a: ", 105) + "1" + strings.Repeat("}", 105)
	at := fact("", "").IngestionTime.Format(time.RFC3339Nano)
	text := "---\nid: f-b\ntype: fact\nbrief: deep\nauthor: ann\nobservation: " + deep + "\ningestion_time: " + at + "\n---\nbody\n"
	if err := os.WriteFile(tx.Store.Path("memory/inbox/f-b.md"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, following := range []bool{true, false} {
		ll := &liveListing{ready: make(chan struct{})}
		if following {
			l, err := live.Open(tx.Store)
			if err != nil {
				t.Fatal(err)
			}
			ll.l = l
		}
		close(ll.ready)
		p := &Pages{dir: tx.Store.Dir, snaps: newSnapshots(), live: ll}
		var ids []string
		for off := range 4 {
			pg, err := p.Page(PageRequest{Query: mdstore.MemoryQuery{Status: "inbox"}, Offset: off, Limit: 1})
			if err != nil {
				t.Fatal(err)
			}
			if pg.Total != 3 || len(pg.Invalid) != 0 {
				t.Fatalf("live %v, offset %d: total %d, invalid %q; want 3 and none", following, off, pg.Total, pg.Invalid)
			}
			for _, e := range pg.Entries {
				ids = append(ids, e.ID)
			}
		}
		if strings.Join(ids, " ") != "f-a f-b f-c" {
			t.Errorf("live %v: pages gave %v, want f-a f-b f-c", following, ids)
		}
		pg, err := p.Page(PageRequest{Query: mdstore.MemoryQuery{Status: "inbox"}, Offset: math.MaxInt})
		if err != nil || len(pg.Entries) != 0 || pg.Total != 3 {
			t.Errorf("live %v: the page at the largest offset: %+v, %v; want no entries of 3", following, pg, err)
		}
		p.Close()
	}
}
