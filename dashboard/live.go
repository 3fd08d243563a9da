package dashboard

import (
	"bytes"
	_ "embed"
	"html/template"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"sync"
	"time"
)

// LiveCSP is the Content-Security-Policy of served pages: the page's own
// styles, live.js from the same server, and its requests back to it;
// nothing else.
const LiveCSP = "default-src 'none'; style-src 'unsafe-inline'; script-src 'self'; connect-src 'self'"

// Live serves the dashboards of several projects, each page rendered afresh
// at every request, and tells open pages when to update themselves by
// server-sent events. Routes:
//
//	/              the dashboard when there is exactly one project, else an index of them
//	/project/NAME  that project's dashboard
//	/events        the event stream: an "update" event, whose data is the project's
//	               name ("" for every project), at every Notify
//	/live.js       the script that served pages load to update without a reload
//	/store         the store's health page, when ServeStore was called
type Live struct {
	render   func(project string) ([]byte, error)
	projects func() []string
	mux      *http.ServeMux
	// store renders the store's page (nil: none is served).
	store func() ([]byte, error)

	// heartbeat is how often an idle event stream gets a comment, so
	// proxies and browsers keep it open.
	heartbeat time.Duration

	mu      sync.Mutex
	streams map[*stream]struct{}
	closed  bool
	done    chan struct{} // closed by Close
	open    sync.WaitGroup
}

// NewLive serves what render makes of each project that projects lists.
// render is called once per page request, with a name projects listed.
func NewLive(render func(project string) ([]byte, error), projects func() []string) *Live {
	l := &Live{render: render, projects: projects, mux: http.NewServeMux(), heartbeat: 15 * time.Second,
		streams: map[*stream]struct{}{}, done: make(chan struct{})}
	l.mux.HandleFunc("GET /{$}", l.home)
	l.mux.HandleFunc("GET /project/{name}", func(w http.ResponseWriter, r *http.Request) {
		name := r.PathValue("name")
		if !slices.Contains(l.projects(), name) {
			http.NotFound(w, r)
			return
		}
		l.dashboard(w, name)
	})
	l.mux.HandleFunc("GET /events", l.events)
	l.mux.HandleFunc("GET /live.js", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
		w.Header().Set("Cache-Control", "no-cache")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.Write(liveJS)
	})
	return l
}

// ServeStore serves the store's page at /store, rendered by render at each
// request, and links it from the index; Notify(StoreProject) updates it.
// Call it before serving.
func (l *Live) ServeStore(render func() ([]byte, error)) {
	l.store = render
	l.mux.HandleFunc("GET /store", func(w http.ResponseWriter, r *http.Request) {
		page, err := l.store()
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		l.write(w, livePage(page, StoreProject))
	})
}

// Handler serves the routes of the live dashboard.
func (l *Live) Handler() http.Handler { return l.mux }

// home is the one project's dashboard, or the index when there are none or
// several.
func (l *Live) home(w http.ResponseWriter, r *http.Request) {
	names := slices.Sorted(slices.Values(l.projects()))
	if len(names) == 1 {
		l.dashboard(w, names[0])
		return
	}
	var b bytes.Buffer
	if err := indexTemplate.Execute(&b, index{CSP: LiveCSP, Names: names, Store: l.store != nil}); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	l.write(w, b.Bytes())
}

// dashboard serves one project's page, made live.
func (l *Live) dashboard(w http.ResponseWriter, project string) {
	page, err := l.render(project)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	l.write(w, livePage(page, project))
}

// write sends a served page with its headers.
func (l *Live) write(w http.ResponseWriter, page []byte) {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Security-Policy", LiveCSP)
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	w.Write(page)
}

//go:embed live.js
var liveJS []byte

var (
	// cspMeta is the policy a dashboard written to disk carries, which
	// forbids every script; a served page carries LiveCSP instead.
	cspMeta = regexp.MustCompile(`(?i)<meta\s+http-equiv="Content-Security-Policy"[^>]*>`)
	headEnd = regexp.MustCompile(`(?i)</head>`)
)

// livePage turns a dashboard page into a served one: the policy allows
// live.js, and the page loads it, naming its project.
func livePage(page []byte, project string) []byte {
	meta := `<meta http-equiv="Content-Security-Policy" content="` + template.HTMLEscapeString(LiveCSP) + `">`
	script := `<script src="/live.js" data-project="` + template.HTMLEscapeString(project) + `" defer></script>`
	out := page
	if loc := cspMeta.FindIndex(out); loc != nil {
		out = slices.Concat(out[:loc[0]], []byte(meta), out[loc[1]:])
	}
	if loc := headEnd.FindIndex(out); loc != nil {
		return slices.Concat(out[:loc[0]], []byte(script+"\n"), out[loc[0]:])
	}
	return slices.Concat(out, []byte("\n"+script+"\n"))
}

// index is what the index page shows.
type index struct {
	CSP   string
	Names []string
	// Store links the store's page.
	Store bool
}

// indexTemplate lists the projects served, each a link to its dashboard.
var indexTemplate = template.Must(template.New("index").Funcs(template.FuncMap{"path": url.PathEscape}).Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="{{.CSP}}">
<title>curator — pipelines</title>
<style>
body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 2rem auto; max-width: 72rem; padding: 0 1rem; color:#1f2328; }
li { margin: .3rem 0; } .muted { color: #57606a; }
</style>
<script src="/live.js" data-project="" defer></script>
</head>
<body>
{{if .Store}}<p><a id="store-link" href="/store">Store health</a>: memory, playbook and runs over time.</p>
{{end}}<h1>Pipelines</h1>
{{if .Names}}<ul id="projects">{{range .Names}}<li><a href="/project/{{path .}}">{{.}}</a></li>{{end}}</ul>
{{- else}}<p class="muted">No pipeline yet.</p>{{end}}
</body>
</html>
`))
