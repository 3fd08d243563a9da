package memory

import (
	"context"
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
