package dashboard

import (
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/curator-dev/curator/pipeline"

	"github.com/curator-dev/curator/internal/browsertest"
)

// TestLiveInBrowser serves a live dashboard to headless Chromium, changes
// the pipeline's state, and checks that the open page shows the change
// without a reload, with its hostile texts still inert.
func TestLiveInBrowser(t *testing.T) {
	bin := browsertest.Chromium(t)
	var (
		mu      sync.Mutex
		renders int
	)
	st, r := hostileState()
	live := NewLive(func(project string) ([]byte, error) {
		mu.Lock()
		defer mu.Unlock()
		renders++
		return ForPipeline(st, r)
	}, func() []string { return []string{"shop"} })
	srv := httptest.NewServer(live.Handler())
	defer srv.Close()
	defer live.Close()
	rendered := func() int {
		mu.Lock()
		defer mu.Unlock()
		return renders
	}

	ctx, dialogs := browsertest.Start(t, bin)
	if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/"), chromedp.WaitVisible(chromedp.ID("phases"))); err != nil {
		t.Fatal(err)
	}
	marker := func(want string, within time.Duration) {
		t.Helper()
		js := `(document.getElementById("live-status") || {}).textContent || ""`
		if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`(`+js+`).startsWith(`+quote(want)+`)`,
			chromedp.WithPollingInterval(20*time.Millisecond), chromedp.WithPollingTimeout(within))); err != nil {
			got, _ := chromedp.Run(ctx, chromedp.Evaluate[string](js))
			t.Fatalf("the page's marker says %q, not %q, after %v: %v", got, want, within, err)
		}
	}
	// The marker says "live" once the event stream is open: from then on,
	// every Notify reaches the page.
	marker("live", 10*time.Second)
	if err := chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](`window.kept = 42`)); err != nil {
		t.Fatal(err)
	}
	before := rendered()

	// An update for another project leaves this page alone; then the
	// state of shop gains a drift, and its page is told.
	live.Notify("blog")
	mu.Lock()
	st.UpdatedAt = "2026-11-29T10:09:00Z"
	st.Phases[1].Artifacts = append(st.Phases[1].Artifacts, pipeline.Artifact{Path: "completion-report.md", Type: "report", SizeBytes: 900})
	r.Drift = append(r.Drift, pipeline.Drift{Phase: "implementer", Path: "completion-report.md", Change: "removed", ModifiedAt: "2026-11-29T10:08:00Z"})
	r.Warnings = append(r.Warnings, "Drift: <img src=x onerror=alert(3)> removed")
	mu.Unlock()
	notified := time.Now()
	live.Notify("shop")
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.body.textContent.includes("removed at 2026-11-29T10:08:00Z")`,
		chromedp.WithPollingInterval(20*time.Millisecond), chromedp.WithPollingTimeout(10*time.Second))); err != nil {
		t.Fatalf("the drift did not appear on the page: %v", err)
	}
	latency := time.Since(notified)
	t.Logf("the page showed the update %v after Notify", latency.Round(time.Millisecond))
	if latency > 3*time.Second {
		t.Errorf("the page showed the update %v after Notify, want within 3s", latency)
	}

	type after struct {
		Kept     int    `json:"kept"`
		Updated  string `json:"updated"`
		Warnings string `json:"warnings"`
		Injected int    `json:"injected"`
		Marker   string `json:"marker"`
		Title    string `json:"title"`
	}
	got, err := chromedp.Run(ctx, chromedp.Evaluate[after](`({
		kept: window.kept || 0,
		updated: document.getElementById("updated-at").textContent,
		warnings: document.querySelector("ul.warnings").textContent,
		injected: document.querySelectorAll("body script, img").length,
		marker: document.getElementById("live-status").textContent,
		title: document.title,
	})`))
	if err != nil {
		t.Fatal(err)
	}
	select {
	case m := <-dialogs:
		t.Fatalf("a script ran in the live dashboard: alert(%q)", m)
	default:
	}
	if got.Kept != 42 {
		t.Error("the page was reloaded: a global set before the update is gone")
	}
	if got.Updated != "2026-11-29T10:09:00Z" {
		t.Errorf("updated at %q, want the new state's", got.Updated)
	}
	if !strings.Contains(got.Warnings, "Drift: <img src=x onerror=alert(3)> removed") {
		t.Errorf("warnings %q do not show the new hostile warning as text", got.Warnings)
	}
	if got.Injected != 0 {
		t.Errorf("the updated body has %d <script> or <img> elements: a text was not escaped", got.Injected)
	}
	if got.Marker != "live" || got.Title != "shop — sdd pipeline" {
		t.Errorf("after the update: marker %q, title %q", got.Marker, got.Title)
	}
	if n := rendered() - before; n != 1 {
		t.Errorf("the page was fetched %d times for one update of shop and one of blog, want once", n)
	}

	// When the server stops the streams, the page says so.
	live.Close()
	marker("not live", 10*time.Second)
}

// quote is s as a JavaScript string.
func quote(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}
