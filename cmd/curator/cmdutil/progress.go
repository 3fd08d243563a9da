package cmdutil

import (
	"os"
	"sync"

	"github.com/schollz/progressbar/v3"
)

// progressMin is the number of files from which a run shows a progress bar.
const progressMin = 2000

// Progress returns a callback that draws a progress bar on stderr, or nil
// when stderr is not a terminal or with --json or --quiet. NO_COLOR turns
// its colours off.
func (e Env) Progress(what string) func(done, total int) {
	f, ok := e.IO.ErrOut.(*os.File)
	if e.Globals.JSON || e.Globals.Quiet || !ok || !e.IO.StderrTTY {
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
				progressbar.OptionEnableColorCodes(e.IO.Color),
				progressbar.OptionThrottle(100_000_000),
			)
		})
		mu.Lock()
		bar.Set(done)
		mu.Unlock()
	}
}
