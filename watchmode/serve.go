package watchmode

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/url"
	"sort"
	"time"

	"golang.org/x/net/netutil"

	"github.com/curator-dev/curator/dashboard"
	"github.com/curator-dev/curator/history"
	"github.com/curator-dev/curator/storehealth"
)

// liveServer serves the followed projects' dashboards and pushes each
// change to the pages open in browsers.
type liveServer struct {
	live *dashboard.Live
	srv  *http.Server
	url  string
	// stop ends followHead, which closes stopped.
	stop, stopped chan struct{}
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
	if w.store != nil {
		live.ServeStore(func() ([]byte, error) { return storePage(w.opts) })
	}
	s := &liveServer{live: live, stop: make(chan struct{}), stopped: make(chan struct{}), url: "http://" + ln.Addr().String() + "/",
		srv: &http.Server{Handler: dashboard.GuardHost(live.Handler(), hosts...), ReadHeaderTimeout: 5 * time.Second, IdleTimeout: idleTimeout}}
	go func() {
		if err := s.srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			w.log.emit(Event{Event: "error", Message: "dashboard server: " + err.Error()})
		}
	}()
	if w.store != nil {
		go s.followHead(w.store.Dir)
	} else {
		close(s.stopped)
	}
	return s, nil
}

// headPoll is how often the live server looks for a new commit, made by
// this watch or any other curator run, to update the store's page.
const headPoll = time.Second

// followHead tells the store's open pages to update whenever the store's
// HEAD moves, until close.
func (s *liveServer) followHead(dir string) {
	defer close(s.stopped)
	last, _ := history.Head(dir)
	t := time.NewTicker(headPoll)
	defer t.Stop()
	for {
		select {
		case <-s.stop:
			return
		case <-t.C:
			if head, err := history.Head(dir); err == nil && head != last {
				last = head
				s.live.Notify(dashboard.StoreProject)
			}
		}
	}
}

// storePage renders the store's health page as it is now, its pipeline
// links to the pages served beside it.
func storePage(opts *Options) ([]byte, error) {
	s, err := opts.Store()
	if err != nil {
		return nil, err
	}
	r, err := storehealth.Read(context.Background(), s, storehealth.Request{Now: time.Now()})
	if err != nil {
		return nil, err
	}
	return dashboard.RenderStore(dashboard.StoreViewOf(r, func(project string) string { return "/project/" + url.PathEscape(project) }))
}

// notify tells the open pages of project to update.
func (s *liveServer) notify(project string) {
	if s != nil {
		s.live.Notify(project)
	}
}

// close ends the open event streams and the server.
func (s *liveServer) close() {
	close(s.stop)
	<-s.stopped
	s.live.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	s.srv.Shutdown(ctx)
}
