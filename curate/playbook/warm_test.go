package playbook

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/curator-dev/curator/curate/similar"
)

// A Warm that answers many varied queries keeps no more bullets read, and
// no more analyses of their texts, than its bounds, and answers each query
// as Query does: what it let go of is read and analysed again.
func TestWarmKeepsWithinItsBounds(t *testing.T) {
	s := appWorldStore(t)
	// Folders an hour old: the listing is outside their clock's racy
	// window, so the playbook is kept between queries.
	old := time.Now().Add(-time.Hour)
	ents, _ := os.ReadDir(s.Path("context/bullets"))
	for _, e := range ents {
		if err := os.Chtimes(filepath.Join(s.Path("context/bullets"), e.Name()), old, old); err != nil {
			t.Fatal(err)
		}
	}
	w := &Warm{reads: 20, analyses: 40}
	pb, _, _, err := Read(s, true, now)
	if err != nil {
		t.Fatal(err)
	}
	pb.ReadAll()
	act := pb.Active()
	answered := map[string]bool{}
	kept := 0
	for i := 0; i < 60; i++ {
		a, b := act[(i*7919)%len(act)], act[(i*613+5)%len(act)]
		q := QueryRequest{Text: Sentences(a.Content)[0] + " " + Sentences(b.Content)[0], Limit: 5}
		got, err := w.Query(context.Background(), s, q)
		if err != nil {
			t.Fatal(err)
		}
		want, err := Query(context.Background(), s, q)
		if err != nil {
			t.Fatal(err)
		}
		g, _ := json.Marshal(got)
		x, _ := json.Marshal(want)
		if string(g) != string(x) {
			t.Fatalf("query %d: warm answer\n%s\nQuery's\n%s", i, g, x)
		}
		for _, r := range got.Bullets {
			answered[r.ID] = true
		}
		if w.pb == nil {
			continue
		}
		kept++
		read := 0
		for _, b := range w.pb.bullets.base {
			if b != nil && b.Doc != nil {
				read++
			}
		}
		analysed := 0
		for _, m := range w.pb.Matcher.by {
			analysed += m.(*similar.Index).Analysed()
		}
		if read > w.reads || analysed > w.analyses {
			t.Fatalf("query %d: %d bullets kept read (bound %d), %d analyses (bound %d)", i, read, w.reads, analysed, w.analyses)
		}
	}
	if kept < 50 {
		t.Fatalf("the playbook was kept after %d queries of 60", kept)
	}
	if len(answered) <= 3*w.reads {
		t.Fatalf("the queries' answers hold %d bullets: too few to go past the bound", len(answered))
	}
}
