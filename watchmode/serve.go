package watchmode

import (
	"context"
	"errors"
	"net"
	"net/http"
	"sort"
	"time"

	"golang.org/x/net/netutil"

	"github.com/curator-dev/curator/dashboard"
)

// liveServer serves the followed projects' dashboards and pushes each
// change to the pages open in browsers.
type liveServer struct {
	live *dashboard.Live
	srv  *http.Server
	url  string
}

// maxConnections caps the dashboard's open connections (each an open
// file), so that browsers or a flood of keep-alive connections cannot take
// the files the watcher needs; idle ones are closed after idleTimeout.
const (
	maxConnections = 256
	idleTimeout    = time.Minute
)

// serveLive starts the dashboard server on addr; it answers requests for
// its own address, localhost, or the names in hosts.
func serveLive(w *watcher, addr string, hosts []string) (*liveServer, error) {
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	ln := netutil.LimitListener(l, maxConnections)
	if h, _, err := net.SplitHostPort(addr); err == nil {
		hosts = append(hosts, h)
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
		srv: &http.Server{Handler: dashboard.GuardHost(live.Handler(), hosts...), ReadHeaderTimeout: 5 * time.Second, IdleTimeout: idleTimeout}}
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
