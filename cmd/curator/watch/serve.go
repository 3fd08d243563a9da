package watchcmd

import (
	"context"
	"errors"
	"net"
	"net/http"
	"sort"
	"time"

	"github.com/curator-dev/curator/dashboard"
)

// liveServer serves the followed projects' dashboards and pushes each
// change to the pages open in browsers.
type liveServer struct {
	live *dashboard.Live
	srv  *http.Server
	url  string
}

// serveLive starts the dashboard server on addr.
func serveLive(w *watcher, addr string) (*liveServer, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	// The page and the project list are read on the server's goroutines:
	// they read the state files, never the watcher's own fields.
	projects := func() []string {
		names, _ := w.pipes.Names()
		sort.Strings(names)
		return names
	}
	live := dashboard.NewLive(w.pipes.Page, projects)
	s := &liveServer{live: live, url: "http://" + ln.Addr().String() + "/",
		srv: &http.Server{Handler: live.Handler(), ReadHeaderTimeout: 5 * time.Second}}
	go func() {
		if err := s.srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			w.log.emit(Event{Event: "error", Message: "dashboard server: " + err.Error()})
		}
	}()
	return s, nil
}

// notify tells the open pages of project to update.
func (s *liveServer) notify(project string) {
	if s != nil {
		s.live.Notify(project)
	}
}

// close ends the open event streams and the server.
func (s *liveServer) close() {
	s.live.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	s.srv.Shutdown(ctx)
}
