package dashboard

import (
	"bufio"
	"context"
	"errors"
	"html"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// wait bounds every wait for the server: generous, for a busy machine.
const wait = 10 * time.Second

// pages renders a small page per project, and counts the renders.
type pages struct {
	mu      sync.Mutex
	names   []string
	renders int
}

func (p *pages) render(project string) ([]byte, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.renders++
	if project == "broken" {
		return nil, errors.New("state of broken: unreadable")
	}
	return []byte(`<!DOCTYPE html><html><head><meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'"><title>t</title></head>` +
		`<body><h1>dashboard of ` + project + `</h1></body></html>`), nil
}

func (p *pages) projects() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.names)
}

func get(t *testing.T, h http.Handler, method, target string) *httptest.ResponseRecorder {
	t.Helper()
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest(method, target, nil))
	return w
}

func TestLiveRoutes(t *testing.T) {
	p := &pages{names: []string{"shop"}}
	h := NewLive(p.render, p.projects).Handler()
	for _, target := range []string{"/", "/project/shop"} {
		w := get(t, h, "GET", target)
		if w.Code != http.StatusOK || !strings.Contains(w.Body.String(), "dashboard of shop") {
			t.Errorf("GET %s: %d %q, want the dashboard of shop", target, w.Code, w.Body)
		}
		if !strings.Contains(w.Body.String(), `<script src="/live.js" data-project="shop" defer></script>`) {
			t.Errorf("GET %s: the page does not load live.js for shop: %s", target, w.Body)
		}
	}
	for _, target := range []string{"/project/other", "/project/", "/nothing", "/project/shop/more", "/index.html"} {
		if w := get(t, h, "GET", target); w.Code != http.StatusNotFound {
			t.Errorf("GET %s: %d, want 404", target, w.Code)
		}
	}
	if w := get(t, h, "POST", "/"); w.Code != http.StatusMethodNotAllowed {
		t.Errorf("POST /: %d, want 405", w.Code)
	}
	w := get(t, h, "GET", "/live.js")
	if w.Code != http.StatusOK || !strings.HasPrefix(w.Header().Get("Content-Type"), "text/javascript") ||
		!strings.Contains(w.Body.String(), `new EventSource("/events")`) {
		t.Errorf("GET /live.js: %d %s, %.80q", w.Code, w.Header().Get("Content-Type"), w.Body)
	}
	p.names = []string{"broken"}
	if w := get(t, h, "GET", "/"); w.Code != http.StatusInternalServerError || !strings.Contains(w.Body.String(), "unreadable") {
		t.Errorf("a page that does not render: %d %q, want 500 and the error", w.Code, w.Body)
	}
	if p.renders != 3 {
		t.Errorf("%d renders for 3 pages served", p.renders)
	}
}

func TestLiveIndex(t *testing.T) {
	p := &pages{names: []string{"shop", "<b>blog</b>", "a b"}}
	h := NewLive(p.render, p.projects).Handler()
	w := get(t, h, "GET", "/")
	body := w.Body.String()
	if w.Code != http.StatusOK || p.renders != 0 {
		t.Fatalf("GET /: %d, %d renders; want the index, which renders no dashboard", w.Code, p.renders)
	}
	links := regexp.MustCompile(`<li><a href="([^"]*)">([^<]*)</a></li>`).FindAllStringSubmatch(body, -1)
	var got []string
	for _, l := range links {
		got = append(got, l[1]+" "+l[2])
	}
	want := []string{"/project/%3Cb%3Eblog%3C%2Fb%3E &lt;b&gt;blog&lt;/b&gt;", "/project/a%20b a b", "/project/shop shop"}
	if !slices.Equal(got, want) {
		t.Errorf("index links\n got %q\nwant %q", got, want)
	}
	if !strings.Contains(body, `<script src="/live.js" data-project="" defer></script>`) {
		t.Errorf("the index does not load live.js for every project: %s", body)
	}
	for _, target := range []string{"/project/%3Cb%3Eblog%3C%2Fb%3E", "/project/a%20b", "/project/shop"} {
		if w := get(t, h, "GET", target); w.Code != http.StatusOK || !strings.Contains(w.Body.String(), "dashboard of ") {
			t.Errorf("GET %s (a link of the index): %d %q", target, w.Code, w.Body)
		}
	}
	p.names = nil
	if w := get(t, h, "GET", "/"); w.Code != http.StatusOK || !strings.Contains(w.Body.String(), "No pipeline yet") {
		t.Errorf("index of no project: %d %q", w.Code, w.Body)
	}
}

func TestLiveCSP(t *testing.T) {
	p := &pages{names: []string{"shop", "blog"}}
	h := NewLive(p.render, p.projects).Handler()
	meta := regexp.MustCompile(`(?i)<meta http-equiv="Content-Security-Policy" content="([^"]*)">`)
	for _, target := range []string{"/", "/project/shop"} {
		w := get(t, h, "GET", target)
		if got := w.Header().Get("Content-Security-Policy"); got != LiveCSP {
			t.Errorf("GET %s: Content-Security-Policy %q, want %q", target, got, LiveCSP)
		}
		// A browser enforces every policy of a page: the one the page
		// carries must allow live.js too.
		metas := meta.FindAllStringSubmatch(w.Body.String(), -1)
		if len(metas) != 1 || html.UnescapeString(metas[0][1]) != LiveCSP {
			t.Errorf("GET %s: policies in the page %q, want only %q", target, metas, LiveCSP)
		}
	}
	if LiveCSP != "default-src 'none'; style-src 'unsafe-inline'; script-src 'self'; connect-src 'self'" {
		t.Errorf("LiveCSP is %q", LiveCSP)
	}
	// The page written to disk stays as it was: no script, no live policy.
	disk, err := ForPipeline(hostileState())
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(disk), "<script") || strings.Contains(string(disk), "script-src") {
		t.Error("the dashboard written to disk loads a script")
	}
	served := string(livePage(disk, "shop"))
	if n := strings.Count(served, "<script"); n != 1 {
		t.Errorf("the served hostile dashboard has %d scripts, want live.js alone", n)
	}
	if metas := meta.FindAllStringSubmatch(served, -1); len(metas) != 1 || html.UnescapeString(metas[0][1]) != LiveCSP {
		t.Errorf("the served hostile dashboard: policies %q, want only %q", metas, LiveCSP)
	}
}

// events is an open event stream, read line by line.
type events struct {
	lines chan string
	body  io.Closer
}

// openEvents opens the event stream at url and waits until it is open.
func openEvents(t *testing.T, ctx context.Context, url string) *events {
	t.Helper()
	ctx, cancel := context.WithCancel(ctx)
	req, err := http.NewRequestWithContext(ctx, "GET", url+"/events", nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("GET /events: %s, %s", res.Status, res.Header.Get("Content-Type"))
	}
	e := &events{lines: make(chan string, 64), body: res.Body}
	go func() {
		defer close(e.lines)
		sc := bufio.NewScanner(res.Body)
		for sc.Scan() {
			e.lines <- sc.Text()
		}
	}()
	t.Cleanup(func() { cancel(); res.Body.Close() })
	e.waitLine(t, ": open")
	return e
}

// line is the next line; ok is false at the end of the stream.
func (e *events) line(t *testing.T) (line string, ok bool) {
	t.Helper()
	select {
	case l, ok := <-e.lines:
		return l, ok
	case <-time.After(wait):
		t.Fatalf("no line from the event stream in %v", wait)
		return "", false
	}
}

func (e *events) waitLine(t *testing.T, want string) {
	t.Helper()
	for {
		l, ok := e.line(t)
		if !ok {
			t.Fatalf("the event stream ended before %q", want)
		}
		if l == want {
			return
		}
	}
}

// next is the next event, skipping comments.
func (e *events) next(t *testing.T) (name, data string) {
	t.Helper()
	var datas []string
	for {
		l, ok := e.line(t)
		if !ok {
			t.Fatal("the event stream ended before an event")
		}
		switch {
		case l == "" && name != "":
			return name, strings.Join(datas, "\n")
		case strings.HasPrefix(l, "event: "):
			name = strings.TrimPrefix(l, "event: ")
		case strings.HasPrefix(l, "data: "):
			datas = append(datas, strings.TrimPrefix(l, "data: "))
		}
	}
}

// ended waits for the end of the stream.
func (e *events) ended(t *testing.T) {
	t.Helper()
	for {
		if _, ok := e.line(t); !ok {
			return
		}
	}
}

func TestLiveEvents(t *testing.T) {
	p := &pages{names: []string{"shop"}}
	l := NewLive(p.render, p.projects)
	l.heartbeat = 50 * time.Millisecond
	srv := httptest.NewServer(l.Handler())
	defer srv.Close()
	defer l.Close()
	e := openEvents(t, t.Context(), srv.URL)
	e.waitLine(t, ": heartbeat")
	for _, project := range []string{"shop", "", "two\nlines"} {
		l.Notify(project)
		if name, data := e.next(t); name != "update" || data != project {
			t.Errorf("Notify(%q): event %q data %q, want update %q", project, name, data, project)
		}
	}
}

func TestLiveNotifyMerges(t *testing.T) {
	l := NewLive((&pages{}).render, (&pages{}).projects)
	s := l.subscribe()
	defer l.unsubscribe(s)
	for _, tc := range []struct {
		notify []string
		want   []string
	}{
		{[]string{"a", "b", "a"}, []string{"a", "b"}},
		{[]string{"a", "", "b"}, []string{""}},
		{nil, nil},
	} {
		for _, p := range tc.notify {
			l.Notify(p)
		}
		if got := l.take(s); !slices.Equal(got, tc.want) {
			t.Errorf("Notify %q: sends %q, want %q", tc.notify, got, tc.want)
		}
	}
}

// TestLiveClose serves a Live from an http.Server, as the commands do:
// Close ends the open streams, so Shutdown returns.
func TestLiveClose(t *testing.T) {
	p := &pages{names: []string{"shop"}}
	l := NewLive(p.render, p.projects)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: l.Handler(), ReadHeaderTimeout: wait}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	url := "http://" + ln.Addr().String()
	a, b := openEvents(t, t.Context(), url), openEvents(t, t.Context(), url)
	l.Notify("shop")
	a.next(t)
	b.next(t)

	closed := make(chan struct{})
	go func() { l.Close(); close(closed) }()
	select {
	case <-closed:
	case <-time.After(wait):
		t.Fatal("Close did not return")
	}
	a.ended(t)
	b.ended(t)
	l.Close() // again: nothing happens

	res, err := http.Get(url + "/events")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusNoContent {
		t.Errorf("GET /events after Close: %s, want 204 (do not reconnect)", res.Status)
	}
	if res, err := http.Get(url + "/"); err != nil || res.StatusCode != http.StatusOK {
		t.Errorf("GET / after Close: %v %v, want the page still", res, err)
	} else {
		res.Body.Close()
	}
	ctx, cancel := context.WithTimeout(t.Context(), wait)
	defer cancel()
	if err := srv.Shutdown(ctx); err != nil {
		t.Fatalf("Shutdown: %v", err)
	}
	if err := <-served; !errors.Is(err, http.ErrServerClosed) {
		t.Fatalf("Serve: %v", err)
	}
}

// TestLiveClientGoes checks that a stream whose client went is forgotten.
func TestLiveClientGoes(t *testing.T) {
	p := &pages{names: []string{"shop"}}
	l := NewLive(p.render, p.projects)
	srv := httptest.NewServer(l.Handler())
	defer srv.Close()
	defer l.Close()
	ctx, cancel := context.WithCancel(t.Context())
	openEvents(t, ctx, srv.URL)
	count := func() int {
		l.mu.Lock()
		defer l.mu.Unlock()
		return len(l.streams)
	}
	if n := count(); n != 1 {
		t.Fatalf("%d open streams, want 1", n)
	}
	cancel()
	for deadline := time.Now().Add(wait); count() != 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the stream of a client that went is still open after %v", wait)
		}
	}
}
