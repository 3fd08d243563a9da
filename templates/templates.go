package templates

import "embed"

// FS holds every template, by file name.
//
//go:embed *.tmpl
var FS embed.FS

// Names of the templates in FS.
const (
	// Brief is the context brief (text/template, markdown).
	Brief = "brief.md.tmpl"
	// Dashboard is the pipeline dashboard (html/template, self-contained).
	Dashboard = "dashboard.html.tmpl"
	// StoreDashboard is the store's health page (html/template,
	// self-contained).
	StoreDashboard = "store.html.tmpl"
)
