package main

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/curator-dev/curator/internal/browsertest"
)

// TestWatchDashboardInBrowser opens the dashboard that `curator watch
// --serve` serves in headless Chromium, changes a validated artifact on
// disk, and checks that the open page shows the drift by itself, without a
// reload, about a second later.
func TestWatchDashboardInBrowser(t *testing.T) {
	bin := browsertest.Chromium(t)
	dir, spec := pipelineStore(t)
	w, started := startWatch(t, dir, "--pipelines", "--project", "shop", "--serve", "127.0.0.1:0")
	if !strings.HasPrefix(started.URL, "http://127.0.0.1:") {
		t.Fatalf("watching event without the dashboard's address: %+v", started)
	}
	ctx, dialogs := browsertest.Start(t, bin)
	if err := chromedp.Do(ctx, chromedp.Navigate(started.URL), chromedp.WaitVisible(chromedp.ID("artifacts"))); err != nil {
		t.Fatal(err)
	}
	js := `(document.getElementById("live-status") || {}).textContent || ""`
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool]("("+js+`).startsWith("live")`, chromedp.WithPollingTimeout(10*time.Second))); err != nil {
		t.Fatalf("the page never went live: %v", err)
	}
	if err := chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](`window.kept = 7`)); err != nil {
		t.Fatal(err)
	}
	artifacts := func() string {
		s, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("#artifacts tbody")))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	if a := artifacts(); strings.Contains(a, "modified") {
		t.Fatalf("drift shown before any change: %q", a)
	}

	changed := time.Now()
	write(t, filepath.Join(dir, "shop/spec.md"), append(append([]byte{}, spec...), "\nA late requirement.\n"...))
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.querySelector("#artifacts tbody").textContent.includes("modified at")`,
		chromedp.WithPollingInterval(20*time.Millisecond), chromedp.WithPollingTimeout(10*time.Second))); err != nil {
		t.Fatalf("the drift did not appear on the open page: %v (artifacts: %q)", err, artifacts())
	}
	latency := time.Since(changed)
	t.Logf("the open page showed the drift %v after the write", latency.Round(time.Millisecond))
	if latency > 3*time.Second {
		t.Errorf("the page showed the drift %v after the write; want about a second", latency)
	}
	w.next("drift", 10*time.Second)
	kept, err := chromedp.Run(ctx, chromedp.Evaluate[int](`window.kept || 0`))
	if err != nil {
		t.Fatal(err)
	}
	if kept != 7 {
		t.Error("the page was reloaded to show the drift")
	}

	// The validated content is back: the drift goes away on the page too.
	write(t, filepath.Join(dir, "shop/spec.md"), spec)
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`!document.querySelector("#artifacts tbody").textContent.includes("modified at")`,
		chromedp.WithPollingInterval(20*time.Millisecond), chromedp.WithPollingTimeout(10*time.Second))); err != nil {
		t.Fatalf("the cleared drift stayed on the page: %v", err)
	}
	select {
	case m := <-dialogs:
		t.Fatalf("a script ran in the dashboard: alert(%q)", m)
	default:
	}
	w.stop()
}
