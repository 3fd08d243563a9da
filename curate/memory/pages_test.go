package memory

import (
	"context"
	"testing"
	"time"

	"github.com/curator-dev/curator/mdstore"
)

// While the live listing is still opening (it reads every file of a large
// store), a page of a window is read from the files through the memory
// index instead of waiting for it, with the same answer.
func TestPageOfAWindowDoesNotWaitForTheLiveListing(t *testing.T) {
	tx := txOn(t)
	for _, id := range []string{"f-a", "f-b", "f-c"} {
		if _, err := Add(context.Background(), tx, AddRequest{Record: fact(id, "brief of "+id)}); err != nil {
			t.Fatal(err)
		}
	}
	at := fact("", "").IngestionTime
	p := &Pages{dir: tx.Store.Dir, snaps: newSnapshots(), live: &liveListing{ready: make(chan struct{})}} // never opens
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
		if pg == nil || pg.Total != 3 || len(pg.Entries) != 2 || pg.Entries[0].ID != "f-a" || pg.Entries[1].ID != "f-b" {
			t.Fatalf("page %+v", pg)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the page waited for the live listing to open")
	}
}
