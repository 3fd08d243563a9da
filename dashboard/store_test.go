package dashboard

import (
	"io"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/curator-dev/curator/curate/playbook"
	"github.com/curator-dev/curator/storehealth"
)

func storeReport() *storehealth.Report {
	at := time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)
	run := storehealth.Run{Commit: "0123456789abcdef", Time: at, RunID: "r1", Kind: "memory",
		Summary: "memory curate <script>alert(1)</script>: 40 duplicates", Counts: map[string]int{"duplicates": 40, "conflicts": 2}}
	return &storehealth.Report{At: at, Head: run.Commit, Step: storehealth.PerRun,
		Series: []storehealth.Point{{Start: at, End: at, Runs: 1, Kinds: map[string]int{"memory": 1}, Counts: run.Counts,
			Active: map[string]int{"strategy": 2}}},
		Runs: []storehealth.RunView{{Run: run, Show: "curator show 0123456789ab",
			Outliers: []storehealth.Outlier{{Count: storehealth.Trashed, Value: 40, Usual: 2}}}},
		Memory: storehealth.Memory{Inbox: 3, Unprocessed: 2, OldestAge: 3 * 86400, Confirmed: map[string]int{"fact": 5}},
		Playbook: storehealth.Playbook{Active: 2, ByCategory: map[string]int{"strategy": 2}, Helpful: make([]int, len(storehealth.CounterBins)),
			Harmful: make([]int, len(storehealth.CounterBins)), Waiting: []playbook.ReviewItem{{ID: "STRAT-002", Reasons: []string{"confidence 0.50 < 0.6"}}}},
		Pipelines: []string{"shop"}}
}

func TestStorePageEscapesAndMarks(t *testing.T) {
	page, err := RenderStore(StoreViewOf(storeReport(), func(p string) string { return "pipelines/dashboard-" + p + ".html" }))
	if err != nil {
		t.Fatal(err)
	}
	s := string(page)
	for _, want := range []string{"&lt;script&gt;alert(1)&lt;/script&gt;", `class="run outlier"`, "trashed 40 (usually 2)",
		"2 conflict(s) recorded by sync", `href="pipelines/dashboard-shop.html"`, "STRAT-002", "3 days", `id="memory-flow"`, "prefers-color-scheme: dark"} {
		if !strings.Contains(s, want) {
			t.Errorf("no %q on the page", want)
		}
	}
	if strings.Contains(s, "<script") {
		t.Error("the written page holds a script")
	}
}

func TestLiveServesTheStorePage(t *testing.T) {
	l := NewLive(func(string) ([]byte, error) { return []byte("<html><head></head><body>p</body></html>"), nil },
		func() []string { return []string{"a", "b"} })
	l.ServeStore(func() ([]byte, error) {
		return RenderStore(StoreViewOf(storeReport(), func(p string) string { return "/project/" + p }))
	})
	srv := httptest.NewServer(l.Handler())
	defer srv.Close()
	defer l.Close()
	get := func(path string) string {
		res, err := srv.Client().Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		if res.StatusCode != 200 {
			t.Fatalf("%s: %s", path, res.Status)
		}
		return string(b)
	}
	if s := get("/store"); !strings.Contains(s, `data-project="/store"`) || !strings.Contains(s, `href="/project/shop"`) {
		t.Errorf("/store is not the live store page:\n%.400s", s)
	}
	if s := get("/"); !strings.Contains(s, `href="/store"`) {
		t.Errorf("the index does not link the store's page:\n%s", s)
	}
}
