package dashboard

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/curator-dev/curator/internal/browsertest"
)

// TestDashboardInBrowser renders a dashboard whose texts try to inject
// scripts in headless Chromium, and checks what a person would see.
func TestDashboardInBrowser(t *testing.T) {
	bin := browsertest.Chromium(t)
	html, err := ForPipeline(hostileState())
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "dashboard-shop.html")
	if err := os.WriteFile(file, html, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, dialogs := browsertest.Start(t, bin)
	if err := chromedp.Do(ctx, chromedp.Navigate("file://"+file), chromedp.WaitVisible(chromedp.ID("phases"))); err != nil {
		t.Fatal(err)
	}
	text := func(sel chromedp.CSS) string {
		t.Helper()
		s, err := chromedp.Run(ctx, chromedp.Text(sel))
		if err != nil {
			t.Fatalf("%s: %v", sel, err)
		}
		return s
	}
	title, err := chromedp.Run(ctx, chromedp.Title())
	if err != nil {
		t.Fatal(err)
	}
	body, status, current := text("body"), text("#overall-status"), text("tr.current")
	rows, artifacts, budget := text("#phases tbody"), text("#artifacts tbody"), text("#budget-status")
	injected, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.querySelectorAll("script, img").length > 0`))
	if err != nil {
		t.Fatal(err)
	}
	select {
	case m := <-dialogs:
		t.Fatalf("a script ran in the dashboard: alert(%q)", m)
	default:
	}
	if injected {
		t.Error("the page has <script> or <img> elements: text from the state was not escaped")
	}
	checks := []struct{ what, got, want string }{
		{"title", title, "shop — sdd pipeline"},
		{"overall status", status, "blocked"},
		{"current phase row", current, "Implementation"},
		{"phases", rows, "Specification"},
		{"phases", rows, "Review"},
		{"phase summary shown as text", rows, "<script>alert(1)</script>"},
		{"artifact path shown as text", artifacts, "<script>alert(1)</script>.md"},
		{"drift", artifacts, "modified at 2026-11-29T10:04:00Z"},
		{"budget", budget, "context pressure"},
		{"current position", body, "2. implementer — step 2: <img src=x onerror=alert(2)>"},
		{"blocker", body, `missing section "Summary"`},
	}
	for _, c := range checks {
		if !strings.Contains(c.got, c.want) {
			t.Errorf("%s: %q does not show %q", c.what, c.got, c.want)
		}
	}
}
