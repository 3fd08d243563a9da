package main

import (
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/curator-dev/curator/internal/browsertest"
)

// storeScreenshot, when set, is where TestStoreDashboardInBrowser saves a
// screenshot of the page (the README's docs/store-dashboard.png).
var storeScreenshot = flag.String("store-screenshot", "", "save a PNG of the store's health page to `FILE`")

// TestStoreDashboardInBrowser builds a store by real runs (memory add and
// curate, context reflect and curate, a pipeline transition), opens the
// store's page that `curator watch --serve` serves in headless Chromium,
// checks that every chart is drawn with data and has its table, that the
// pipeline page is linked, and that a run committed by another process
// shows on the open page by itself, without a reload.
func TestStoreDashboardInBrowser(t *testing.T) {
	bin := browsertest.Chromium(t)
	dir, _ := pipelineStore(t)
	for i, brief := range []string{"the build uses Go 1.24", "the build uses Go 1.24", "staging lives in eu-west-1", "a passing remark"} {
		curator(t, dir, "memory", "add", "--type", "fact", "--brief", brief, "--author", "agent-a", "--tags", "build,infra",
			"--confidence", "4", "--proximity", []string{"0.9", "0.9", "0.5", "0.1"}[i], "--surprisal", "0.8", "--entity-priority", "0.8", "--unambiguity", "0.9", "body")
	}
	curator(t, dir, "memory", "curate")
	curator(t, dir, "memory", "add", "--type", "lesson", "--brief", "retry flaky uploads", "--proximity", "0.5", "body")
	write(t, filepath.Join(dir, "r1.md"), []byte("---\nid: r1\nagent: a\ntask: t\nlessons:\n"+
		"  - content: Always run go vet before committing Go changes to catch mistakes early\n    category: verification\n    confidence: 0.9\n"+
		"  - content: Use table tests for parsers with many input cases and edge cases\n    category: pattern\n    confidence: 0.5\n---\nbody\n"))
	curator(t, dir, "context", "reflect", "r1.md")
	curator(t, dir, "context", "curate")
	write(t, filepath.Join(dir, "r2.md"), []byte("---\nid: r2\nagent: a\ntask: t\nhelpful_bullets: [VERIF-001]\nharmful_bullets: [PATTERN-001]\nlessons:\n"+
		"  - content: Pin the container base image digest so rebuilds stay reproducible\n    category: strategy\n    confidence: 0.8\n---\nbody\n"))
	curator(t, dir, "context", "reflect", "r2.md")
	curator(t, dir, "context", "curate")

	w, started := startWatch(t, dir, "--serve", "127.0.0.1:0")
	ctx, dialogs := browsertest.Start(t, bin)
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1000, 1400), chromedp.Navigate(started.URL+"store"), chromedp.WaitVisible(chromedp.ID("memory"))); err != nil {
		t.Fatal(err)
	}
	// Every chart: an SVG with a title, a desc and at least one bar or line,
	// and its data table.
	type chart struct {
		ID     string `json:"id"`
		Marks  int    `json:"marks"`
		Title  bool   `json:"title"`
		Desc   bool   `json:"desc"`
		Rows   int    `json:"rows"`
		Height int    `json:"height"`
	}
	charts, err := chromedp.Run(ctx, chromedp.Evaluate[[]chart](`Array.from(document.querySelectorAll("figure.chart")).map(f => ({
		id: f.id, marks: f.querySelectorAll("svg rect.bar, svg polyline.line").length,
		title: !!f.querySelector("svg > title"), desc: !!f.querySelector("svg > desc"),
		rows: f.querySelectorAll("table.data tbody tr").length, height: Math.round(f.querySelector("svg").getBoundingClientRect().height)}))`))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"memory-flow", "memory-promoted", "memory-trashed", "memory-confirmed", "playbook-active", "playbook-changes",
		"playbook-confidence", "playbook-counters", "runs-timeline"}
	if len(charts) != len(want) {
		t.Fatalf("charts on the page: %+v, want %v", charts, want)
	}
	for i, c := range charts {
		if c.ID != want[i] || c.Marks == 0 || !c.Title || !c.Desc || c.Rows == 0 || c.Height < 50 {
			t.Errorf("chart %d: %+v, want %s drawn with data, its title, desc and table", i, c, want[i])
		}
	}
	text := func(sel string) string {
		s, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(sel)))
		if err != nil {
			t.Fatalf("%s: %v", sel, err)
		}
		return s
	}
	if s := text("#waiting"); !strings.Contains(s, "PATTERN-001") {
		t.Errorf("waiting for validation: %q, want PATTERN-001 (confidence 0.5)", s)
	}
	if s := text("#top-helpful"); !strings.Contains(s, "VERIF-001") {
		t.Errorf("most helpful: %q", s)
	}
	if s := text("#top-harmful"); !strings.Contains(s, "PATTERN-001") {
		t.Errorf("most harmful: %q", s)
	}
	if href, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector("#pipeline-links a").getAttribute("href")`)); err != nil || href != "/project/shop" {
		t.Errorf("pipeline link %q (%v), want /project/shop", href, err)
	}
	if *storeScreenshot != "" {
		png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(*storeScreenshot, png, 0o644); err != nil {
			t.Fatal(err)
		}
	}

	// A run committed by another curator process shows on the open page.
	js := `(document.getElementById("live-status") || {}).textContent || ""`
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool]("("+js+`).startsWith("live")`, chromedp.WithPollingTimeout(10*time.Second))); err != nil {
		t.Fatalf("the page never went live: %v", err)
	}
	if err := chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](`window.kept = 7`)); err != nil {
		t.Fatal(err)
	}
	before, _ := strconv.Atoi(text("#run-count"))
	committed := time.Now()
	curator(t, dir, "memory", "add", "--type", "fact", "--brief", "one more", "body")
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`+document.getElementById("run-count").textContent === `+strconv.Itoa(before+1),
		chromedp.WithPollingInterval(20*time.Millisecond), chromedp.WithPollingTimeout(10*time.Second))); err != nil {
		t.Fatalf("the new run did not appear on the open page: %v (runs: %q, was %d)", err, text("#run-count"), before)
	}
	t.Logf("the open page showed the new run %v after its commit", time.Since(committed).Round(time.Millisecond))
	if kept, err := chromedp.Run(ctx, chromedp.Evaluate[int](`window.kept || 0`)); err != nil || kept != 7 {
		t.Errorf("the page was reloaded to show the run (%v)", err)
	}

	select {
	case m := <-dialogs:
		t.Fatalf("a script ran in the dashboard: alert(%q)", m)
	default:
	}
	w.stop()
}
