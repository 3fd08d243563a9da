// Package browsertest runs headless Chromium for the tests that check what
// a person sees in curator's dashboards.
package browsertest

import (
	"context"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// Chromium finds the browser; without one the test is skipped, except in CI
// (CI set), where it must run.
func Chromium(t testing.TB) string {
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

// Start starts a headless chromium for one test, and returns its
// context (ended with the test, or after a minute) and the dialogs that
// scripts of its pages opened: a script that ran would open one. Each
// dialog is recorded and closed.
func Start(t testing.TB, bin string) (context.Context, <-chan string) {
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
