package playbook

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/curator-dev/curator/curate/similar"
	"github.com/curator-dev/curator/mdstore"
)

// ageBulletFolders sets the bullet folders' times an hour back: a listing
// of them is then outside their clock's racy window, so a Warm keeps the
// playbook between queries.
func ageBulletFolders(t *testing.T, s *mdstore.Store) {
	t.Helper()
	old := time.Now().Add(-time.Hour)
	ents, _ := os.ReadDir(s.Path("context/bullets"))
	for _, e := range ents {
		if err := os.Chtimes(filepath.Join(s.Path("context/bullets"), e.Name()), old, old); err != nil {
			t.Fatal(err)
		}
	}
}

// readBullets is how many bullets a playbook holds read from their files.
func readBullets(pb *Playbook) int {
	n := 0
	for _, b := range pb.bullets.base {
		if b != nil && b.Doc != nil {
			n++
		}
	}
	return n
}

// sameAnswer fails unless a Warm answers q as Query does.
func sameAnswer(t *testing.T, w *Warm, s *mdstore.Store, q QueryRequest, what string) *QueryReport {
	t.Helper()
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
		t.Fatalf("%s: warm answer\n%s\nQuery's\n%s", what, g, x)
	}
	return got
}

// A Warm that answers many varied queries keeps no more bullets read, and
// no more analyses of their texts, than its bounds, and answers each query
// as Query does: what it let go of is read and analysed again.
func TestWarmKeepsWithinItsBounds(t *testing.T) {
	s := appWorldStore(t)
	ageBulletFolders(t, s)
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
		got := sameAnswer(t, w, s, q, fmt.Sprintf("query %d", i))
		for _, r := range got.Bullets {
			answered[r.ID] = true
		}
		if w.pb == nil {
			continue
		}
		kept++
		analysed := 0
		for _, m := range w.pb.Matcher.by {
			analysed += m.(*similar.Index).Analysed()
		}
		if read := readBullets(w.pb); read > w.reads || analysed > w.analyses {
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

// A bullet that the listing read from its file (the bullet index did not
// hold it: no index yet, after a clone) keeps its frontmatter when the Warm
// lets go of it: a query by tags answers as Query does.
func TestWarmLetsGoOfBulletsTheListingRead(t *testing.T) {
	s := appWorldStore(t)
	if err := os.RemoveAll(s.Path(".cache/bullet-index")); err != nil {
		t.Fatal(err)
	}
	n := 0
	err := filepath.WalkDir(s.Path("context/bullets"), func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || n%2 == 1 {
			n++
			return err
		}
		n++
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(p, []byte(strings.Replace(string(data), "\nversion: 1\n", "\nversion: 1\ntags: [odd]\n", 1)), 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	ageBulletFolders(t, s)
	pb, _, _, err := Read(s, true, now)
	if err != nil {
		t.Fatal(err)
	}
	pb.ReadAll()
	act := pb.Active()
	tagged := 0
	for _, b := range act {
		if len(b.Tags) > 0 {
			tagged++
		}
	}
	if tagged == 0 {
		t.Fatal("no bullet is tagged")
	}
	if err := os.RemoveAll(s.Path(".cache/bullet-index")); err != nil {
		t.Fatal(err)
	}
	w := &Warm{reads: 4, analyses: 1000}
	for i := 0; i < 10; i++ {
		a := act[(i*7919)%len(act)]
		sameAnswer(t, w, s, QueryRequest{Text: Sentences(a.Content)[0], Limit: 5, Tags: []string{"odd"}}, fmt.Sprintf("query %d", i))
	}
	if w.pb == nil {
		t.Fatal("the playbook was not kept")
	}
}

// A query that fewer bullets than its limit match reads every bullet's
// text; the Warm then keeps them all, so that asking it again reads no file.
func TestWarmKeepsAPlaybookReadWhole(t *testing.T) {
	s := appWorldStore(t)
	ageBulletFolders(t, s)
	w := &Warm{reads: 20, analyses: 40}
	q := QueryRequest{Text: "xyzzy frobnicate", Limit: 5}
	for i := 0; i < 3; i++ {
		sameAnswer(t, w, s, q, fmt.Sprintf("query %d", i))
	}
	if w.pb == nil {
		t.Fatal("the playbook was not kept")
	}
	if kept, all := readBullets(w.pb), len(w.pb.bullets.base); kept < all {
		t.Errorf("%d of %d bullets kept read after queries that read them all", kept, all)
	}
}

// A text query that fewer bullets match than its limit scores every bullet
// its category and tags take: only their files are read, and it answers
// as a playbook read whole does.
func TestSearchReadsOnlyTheBulletsItsFiltersTake(t *testing.T) {
	s := appWorldStore(t)
	tagged := 0
	err := filepath.WalkDir(s.Path("context/bullets"), func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || tagged == 12 {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		tagged++
		return os.WriteFile(p, []byte(strings.Replace(string(data), "\nversion: 1\n", "\nversion: 1\ntags: [rare]\n", 1)), 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	e, err := Engine(s)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []QueryRequest{
		{Text: "xyzzy frobnicate", Limit: 5, Tags: []string{"rare"}},
		{Text: "pagination", Limit: 50, Tags: []string{"rare"}},
		{Text: "rare", Limit: 5, Tags: []string{"rare"}},
	} {
		lazy, _, _, err := Read(s, true, now)
		if err != nil {
			t.Fatal(err)
		}
		whole, _, _, err := Read(s, true, now)
		if err != nil {
			t.Fatal(err)
		}
		whole.ReadAll()
		got, want := Search(lazy, e.Score, q), Search(whole, e.Score, q)
		g, _ := json.Marshal(got)
		x, _ := json.Marshal(want)
		if string(g) != string(x) {
			t.Fatalf("%+v: %s\nread whole: %s", q, g, x)
		}
		if n := readBullets(lazy); n > tagged {
			t.Errorf("%+v: %d bullet files read, %d bullets tagged", q, n, tagged)
		}
	}
}
