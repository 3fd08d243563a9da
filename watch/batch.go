package watch

import (
	"slices"
	"time"
)

// Batch is one settled set of changes.
type Batch struct {
	// Paths are absolute, cleaned, sorted and unique: the files and folders
	// created, written, removed, renamed (both names) or whose metadata
	// changed (chmod, touch). A path may name something that is gone.
	Paths []string
	// Rescan says changes may have been lost (the event queue overflowed,
	// or the Watcher switched to polling): treat every root as changed.
	Rescan bool
	// At is when the batch settled.
	At time.Time
}

// Notice is something the user should know about the watching itself.
type Notice struct {
	Kind    string // NoticeFallback, NoticeOverflow, NoticeUnwatched or NoticeError
	Message string // one sentence for a person
	Path    string // the folder concerned, if one is
	Err     error  // the system's error behind it, if any
}

// The kinds of Notice.
const (
	// NoticeFallback: the system refused more watches; the Watcher polls.
	NoticeFallback = "fallback"
	// NoticeOverflow: the system's event queue overflowed; a Rescan batch follows.
	NoticeOverflow = "overflow"
	// NoticeUnwatched: the folder Path could not be watched (other than for
	// lack of room): changes in it are not seen; watching goes on.
	NoticeUnwatched = "unwatched"
	// NoticeError: a folder could not be read, or the system reported an
	// error; watching goes on.
	NoticeError = "error"
)

// pending gathers the changes of the batch being built.
type pending struct {
	paths  map[string]struct{}
	rescan bool
	first  time.Time // first change of the batch
	last   time.Time // latest change
	now    bool      // settle at once (poll ticks, fallback)
}

func (p *pending) empty() bool { return len(p.paths) == 0 && !p.rescan }

// touch records that a change happened at t.
func (p *pending) touch(t time.Time) {
	if p.empty() {
		p.first = t
	}
	p.last = t
}

func (p *pending) add(path string, t time.Time) {
	p.touch(t)
	if p.paths == nil {
		p.paths = make(map[string]struct{})
	}
	p.paths[path] = struct{}{}
}

// settles is when the batch settles: debounce after its latest change, or
// maxDelay after its first, whichever comes first.
func (p *pending) settles(debounce, maxDelay time.Duration) time.Time {
	if p.now {
		return p.first
	}
	quiet, limit := p.last.Add(debounce), p.first.Add(maxDelay)
	if limit.Before(quiet) {
		return limit
	}
	return quiet
}

// take empties p into a Batch settled at t.
func (p *pending) take(t time.Time) Batch {
	b := Batch{Paths: make([]string, 0, len(p.paths)), Rescan: p.rescan, At: t}
	for path := range p.paths {
		b.Paths = append(b.Paths, path)
	}
	slices.Sort(b.Paths)
	*p = pending{}
	return b
}

// merge adds b to a batch not yet delivered (nil if none).
func merge(into *Batch, b Batch) *Batch {
	if into == nil {
		return &b
	}
	into.Paths = slices.Compact(slices.Sorted(slices.Values(append(into.Paths, b.Paths...))))
	into.Rescan = into.Rescan || b.Rescan
	into.At = b.At
	return into
}
