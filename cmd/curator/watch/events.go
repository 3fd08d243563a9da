package watchcmd

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/curator-dev/curator/cmd/curator/cmdutil"
	"github.com/curator-dev/curator/watchmode"
)

// events writes the event log: JSON lines on out, or human lines on errOut
// (nothing but errors with quiet).
type events struct {
	mu     sync.Mutex
	out    io.Writer
	errOut io.Writer
	json   bool
	quiet  bool
	now    func() time.Time
}

// Event is one thing watch did or saw.
type Event = watchmode.Event

// emit writes one event; its error, or the inputs it skipped, are said as
// its message and exit status (a curation that failed is an error event;
// one that skipped inputs keeps its name, exit status 5).
func (l *events) emit(e Event) {
	l.mu.Lock()
	defer l.mu.Unlock()
	err := e.Err
	if err == nil && len(e.Skipped) > 0 {
		err = cmdutil.InvalidInputs{Files: e.Skipped}
	}
	if err != nil {
		e.Message, e.ExitCode = err.Error(), cmdutil.ExitCode(err)
		if e.ExitCode != cmdutil.ExitInvalid {
			e.Event = "error"
		}
	}
	t := l.now().UTC()
	e.Time = t.Format(time.RFC3339Nano)
	if l.json {
		b, _ := json.Marshal(e)
		l.out.Write(append(b, '\n'))
		return
	}
	if l.quiet && e.Event != "error" {
		return
	}
	fmt.Fprintf(l.errOut, "%s %-14s %s\n", t.Local().Format("15:04:05"), e.Event, describe(e))
}

// describe is the human text of an event.
func describe(e Event) string {
	var b strings.Builder
	switch e.Event {
	case "watching":
		fmt.Fprintf(&b, "%d folder(s) under %s with %s", e.Folders, strings.Join(e.Roots, ", "), e.Mode)
		if e.URL != "" {
			fmt.Fprintf(&b, "; dashboard on %s", e.URL)
		}
		b.WriteString(" (Ctrl-C stops)")
	case "drift":
		if e.Change == "deleted" {
			fmt.Fprintf(&b, "%s: %s (phase %s) deleted after validation", e.Project, e.Path, e.Phase)
		} else {
			fmt.Fprintf(&b, "%s: %s (phase %s) modified at %s, sha256 %.12s → %.12s", e.Project, e.Path, e.Phase, e.ModifiedAt, e.ValidatedSHA256, e.SHA256)
		}
	case "drift-cleared":
		fmt.Fprintf(&b, "%s: %s (phase %s) is back to its validated content", e.Project, e.Path, e.Phase)
	case "state":
		fmt.Fprintf(&b, "%s: pipeline state changed", e.Project)
	default:
		b.WriteString(e.Summary)
		if e.Message != "" {
			if b.Len() > 0 {
				b.WriteString(": ")
			}
			b.WriteString(e.Message)
		}
	}
	if e.Commit != "" {
		fmt.Fprintf(&b, " [commit %.12s]", e.Commit)
	}
	return b.String()
}
