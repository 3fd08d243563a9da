package dashboard

import (
	"io"
	"net/http"
	"slices"
	"strings"
	"time"
)

// writeTimeout bounds each write to an event stream, so a client that
// stopped reading cannot hold its stream, nor Close, for ever.
const writeTimeout = 10 * time.Second

// stream is one open event stream: the updates not sent yet, and a wake-up
// when there are some. Updates are merged, never dropped: a stream that
// falls behind sends each project once, or one update for every project.
type stream struct {
	wake    chan struct{} // holds one wake-up at most
	pending []string      // guarded by Live.mu; "" alone stands for every project
}

// Notify tells every open page of project to update itself; "" tells every
// page.
func (l *Live) Notify(project string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for s := range l.streams {
		switch {
		case slices.Contains(s.pending, ""):
		case project == "":
			s.pending = []string{""}
		case !slices.Contains(s.pending, project):
			s.pending = append(s.pending, project)
		}
		select {
		case s.wake <- struct{}{}:
		default:
		}
	}
}

// Close ends every open event stream and refuses new ones, and returns
// when their handlers have returned, so http.Server.Shutdown need not wait
// for them. Pages are still served. Close may be called more than once.
func (l *Live) Close() {
	l.mu.Lock()
	if !l.closed {
		l.closed = true
		close(l.done)
	}
	l.mu.Unlock()
	l.open.Wait()
}

// subscribe opens a stream, or returns nil once the Live is closed.
func (l *Live) subscribe() *stream {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return nil
	}
	s := &stream{wake: make(chan struct{}, 1)}
	l.streams[s] = struct{}{}
	l.open.Add(1)
	return s
}

func (l *Live) unsubscribe(s *stream) {
	l.mu.Lock()
	delete(l.streams, s)
	l.mu.Unlock()
	l.open.Done()
}

// take returns the stream's pending updates and forgets them.
func (l *Live) take(s *stream) []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	p := s.pending
	s.pending = nil
	return p
}

// events serves /events: a text/event-stream that sends an "update" event
// per notified project and a comment as heartbeat, until the client goes
// or the Live is closed.
func (l *Live) events(w http.ResponseWriter, r *http.Request) {
	s := l.subscribe()
	if s == nil {
		// 204 tells an EventSource not to reconnect.
		w.WriteHeader(http.StatusNoContent)
		return
	}
	defer l.unsubscribe(s)
	rc := http.NewResponseController(w)
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	send := func(text string) bool {
		rc.SetWriteDeadline(time.Now().Add(writeTimeout))
		if _, err := io.WriteString(w, text); err != nil {
			return false
		}
		return rc.Flush() == nil
	}
	// The first comment tells the client the stream is open (and that
	// updates from now on will reach it).
	if !send("retry: 2000\n: open\n\n") {
		return
	}
	beat := time.NewTicker(l.heartbeat)
	defer beat.Stop()
	for {
		select {
		case <-r.Context().Done():
			return
		case <-l.done:
			return
		case <-beat.C:
			if !send(": heartbeat\n\n") {
				return
			}
		case <-s.wake:
			var b strings.Builder
			for _, project := range l.take(s) {
				b.WriteString("event: update\n")
				// A line break in the data starts another data line,
				// which the client joins back with "\n".
				project = strings.NewReplacer("\r\n", "\n", "\r", "\n").Replace(project)
				for line := range strings.Lines(project + "\n") {
					b.WriteString("data: " + line)
				}
				b.WriteString("\n")
			}
			if b.Len() > 0 && !send(b.String()) {
				return
			}
		}
	}
}
