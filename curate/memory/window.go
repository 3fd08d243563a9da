package memory

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/curator-dev/curator/internal/refuse"
	"github.com/curator-dev/curator/mdstore"
)

// Window is the half-open interval [From, To) of ingestion times a memory
// pass looks at.
type Window struct {
	From time.Time `json:"from"`
	// FromWatermark is set for the scheduled pass, whose window starts at
	// the watermark of the last pass (neither --from nor --task): only it
	// curates late entries, those older than the watermark that no pass
	// has seen. A window given explicitly curates its entries only.
	FromWatermark bool      `json:"from_watermark"`
	To            time.Time `json:"to"`
}

// Contains reports whether t is in [From, To).
func (w Window) Contains(t time.Time) bool {
	return !t.Before(w.From) && t.Before(w.To)
}

func (w Window) String() string {
	return w.From.UTC().Format(time.RFC3339) + " to " + w.To.UTC().Format(time.RFC3339)
}

// ErrNoWindow means a task text names no curation window.
var ErrNoWindow = errors.New(`the task names no window (expected "整理范围：<start> 到 <end>")`)

// taskWindowRE finds "整理范围：A 到 B" with a full-width or ASCII colon and
// any spacing; "至", "to", "~" are accepted in place of "到".
var taskWindowRE = regexp.MustCompile(`整理范围\s*[：:]\s*(\S+?)\s*(?:到|至|~|\bto\b)\s*(\S+)`)

// WindowFromTask parses the window out of a task description.
func WindowFromTask(task string) (Window, error) {
	m := taskWindowRE.FindStringSubmatch(task)
	if m == nil {
		return Window{}, ErrNoWindow
	}
	from, err := ParseTime(m[1])
	if err != nil {
		return Window{}, err
	}
	to, err := ParseTime(strings.TrimRight(m[2], "。.,，;；"))
	if err != nil {
		return Window{}, err
	}
	return NewWindow(from, to)
}

// NewWindow checks that from is before to.
func NewWindow(from, to time.Time) (Window, error) {
	if !from.Before(to) {
		return Window{}, fmt.Errorf("window start %s is not before its end %s", from.Format(time.RFC3339), to.Format(time.RFC3339))
	}
	return Window{From: from.UTC(), To: to.UTC()}, nil
}

// ParseTime reads an RFC 3339 timestamp; a time without a zone is UTC.
func ParseTime(s string) (time.Time, error) { return mdstore.ParseTime(s) }

// ParseOptionalTime reads a time given to a request under name (a flag
// such as --from, a tool argument such as ingestion_time_start): empty is
// the zero time, anything else RFC 3339 or a wrong request naming it.
func ParseOptionalTime(name, v string) (time.Time, error) {
	if strings.TrimSpace(v) == "" {
		return time.Time{}, nil
	}
	t, err := ParseTime(v)
	if err != nil {
		return t, refuse.Requestf("%s: %v", name, err)
	}
	return t, nil
}

// WindowError is a window that cannot be used; Task tells whether it came
// from the task text.
type WindowError struct {
	Task bool
	Err  error
}

func (e *WindowError) Error() string { return e.Err.Error() }
func (e *WindowError) Unwrap() error { return e.Err }

// PassWindow picks the window of a memory pass: the one the task text
// names when there is a task; otherwise [from, to), where a zero from is
// the watermark of the last pass (FromWatermark; still zero before the
// first pass, and PlanPass starts it at the oldest entry) and a zero to is
// now. watermark is called
// only when it is needed. A window never ends after now: a later end is
// cut at now, so the watermark never runs ahead of the time of the pass.
// A window that cannot be used (one that starts at or after now, among
// others) is a *WindowError.
func PassWindow(task string, from, to, now time.Time, watermark func() (time.Time, error)) (Window, error) {
	if task != "" {
		w, err := WindowFromTask(task)
		if err != nil {
			return w, &WindowError{Task: true, Err: err}
		}
		w, err = w.Until(now)
		if err != nil {
			return w, &WindowError{Task: true, Err: err}
		}
		return w, nil
	}
	scheduled := from.IsZero()
	if scheduled {
		wm, err := watermark()
		if err != nil {
			return Window{}, err
		}
		from = wm
	}
	if to.IsZero() || to.After(now) {
		to = now
	}
	w, err := NewWindow(from, to)
	if err != nil {
		if !from.Before(now) {
			err = fmt.Errorf("window start %s is not in the past (now is %s)", from.UTC().Format(time.RFC3339), now.UTC().Format(time.RFC3339))
		}
		return w, &WindowError{Err: err}
	}
	w.FromWatermark = scheduled
	return w, nil
}

// Until cuts the window at now; a window that starts at or after now is an
// error.
func (w Window) Until(now time.Time) (Window, error) {
	if !w.From.Before(now) {
		return w, fmt.Errorf("window start %s is not in the past (now is %s)", w.From.UTC().Format(time.RFC3339), now.UTC().Format(time.RFC3339))
	}
	if w.To.After(now) {
		w.To = now.UTC()
	}
	return w, nil
}
