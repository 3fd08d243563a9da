package watchcmd

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
)

// Event is one thing watch did or saw: one line on stderr, or with --json
// one JSON object per line on stdout.
type Event struct {
	Time string `json:"time"`
	// Event is watching, drift, drift-cleared, state, memory-curate,
	// context-curate, busy, notice, error or stopped.
	Event   string `json:"event"`
	Project string `json:"project,omitempty"`
	Phase   string `json:"phase,omitempty"`
	Path    string `json:"path,omitempty"`
	Change  string `json:"change,omitempty"`
	// ValidatedSHA256 is the content that was validated, SHA256 the
	// content now.
	ValidatedSHA256 string `json:"validated_sha256,omitempty"`
	SHA256          string `json:"sha256,omitempty"`
	ModifiedAt      string `json:"modified_at,omitempty"`
	Commit          string `json:"commit,omitempty"`
	// Mode is how files are watched (fsnotify or poll); Roots and Folders
	// what is under watch (on "watching").
	Mode    string   `json:"mode,omitempty"`
	Roots   []string `json:"roots,omitempty"`
	Folders int      `json:"folders,omitempty"`
	URL     string   `json:"url,omitempty"`
	Message string   `json:"message,omitempty"`
	// Summary is a curation's one-line count summary; Report its full
	// JSON report.
	Summary  string          `json:"summary,omitempty"`
	Report   json.RawMessage `json:"report,omitempty"`
	ExitCode int             `json:"exit_code,omitempty"`
}

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

func (l *events) emit(e Event) {
	l.mu.Lock()
	defer l.mu.Unlock()
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
