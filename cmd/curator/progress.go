package main

import (
	"os"
	"sync"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// progressMin is the number of files from which a run shows a progress bar.
const progressMin = 2000

// progress returns a callback that draws a progress bar on stderr, or nil
// when stderr is not a terminal, with --json or --quiet, or when NO_COLOR
// asks for plain output.
func (g globals) progress(what string) func(done, total int) {
	f, ok := g.stderr.(*os.File)
	if g.JSON || g.Quiet || !ok || !term.IsTerminal(int(f.Fd())) {
		return nil
	}
	var once sync.Once
	var bar *progressbar.ProgressBar
	var mu sync.Mutex
	return func(done, total int) {
		if total < progressMin {
			return
		}
		once.Do(func() {
			bar = progressbar.NewOptions(total,
				progressbar.OptionSetWriter(f),
				progressbar.OptionSetDescription(what),
				progressbar.OptionShowCount(),
				progressbar.OptionClearOnFinish(),
				progressbar.OptionEnableColorCodes(os.Getenv("NO_COLOR") == ""),
				progressbar.OptionThrottle(100_000_000),
			)
		})
		mu.Lock()
		bar.Set(done)
		mu.Unlock()
	}
}
