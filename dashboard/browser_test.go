package dashboard

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// chromium finds the browser; without one the test is skipped, except in CI
// (CI set), where it must run.
func chromium(t *testing.T) string {
	for _, name := range []string{"/usr/bin/chromium", "chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") != "" {
		t.Fatal("chromium is not installed, and CI is set: the browser test must run (apt-get install chromium)")
	}
	t.Skip("chromium is not installed")
	return ""
}

// browser starts a headless chromium for one test, and returns its
// context (ended with the test, or after a minute) and the dialogs that
// scripts of its pages opened: a script that ran would open one. Each
// dialog is recorded and closed.
func browser(t *testing.T, bin string) (context.Context, <-chan string) {
	t.Helper()
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(bin),
		chromedp.Flag("headless", true), chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true), chromedp.NoFirstRun, chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(t.TempDir()),
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancelAlloc)
	ctx, cancelTab := chromedp.NewContext(actx)
	t.Cleanup(cancelTab)
	ctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	t.Cleanup(cancel)

	dialogs := make(chan string, 4)
	opening := chromedp.Events(ctx, page.JavascriptDialogOpening)
	go func() {
		for ev, err := range opening {
			if err != nil {
				return
			}
			select {
			case dialogs <- ev.Message:
			default:
			}
			chromedp.Call(ctx, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: true})
		}
	}()
	return ctx, dialogs
}

// TestDashboardInBrowser renders a dashboard whose texts try to inject
// scripts in headless Chromium, and checks what a person would see.
func TestDashboardInBrowser(t *testing.T) {
	bin := chromium(t)
	html, err := ForPipeline(hostileState())
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "dashboard-shop.html")
	if err := os.WriteFile(file, html, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, dialogs := browser(t, bin)
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
