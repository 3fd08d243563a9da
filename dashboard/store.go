package dashboard

import (
	"bytes"
	"fmt"
	"html/template"
	"net/url"
	"sort"
	"strings"
	"time"

	"github.com/curator-dev/curator/internal/svgchart"
	"github.com/curator-dev/curator/storehealth"
	"github.com/curator-dev/curator/templates"
)

// StoreProject is the name the live server gives the store's page in its
// events: no pipeline project can have it (an id holds no "/").
const StoreProject = "/store"

// StoreView is what the store's page shows.
type StoreView struct {
	*storehealth.Report
	// Charts are drawn from the report, by section.
	MemoryCharts, PlaybookCharts, RunCharts []template.HTML
	// Pipelines link to each project's dashboard page.
	Pipelines []Link
	// Recent are the runs the timeline table lists (the newest).
	Recent []storehealth.RunView
	// Outliers are the runs of the range with an outlier, newest first.
	Outliers []storehealth.RunView
	// Rule says in words when a run is marked.
	Rule string
	// OldestAge is the age of the oldest unprocessed inbox entry, in words.
	OldestAge string
	// Since is the range in words.
	Since string
}

// Link is a page the store's page links to.
type Link struct{ Name, Href string }

// recentRuns is how many runs the timeline table lists.
const recentRuns = 100

// StoreViewOf draws the report; pipelinePage is the address of a project's
// dashboard page, from the store's page.
func StoreViewOf(r *storehealth.Report, pipelinePage func(project string) string) StoreView {
	v := StoreView{Report: r,
		Rule: fmt.Sprintf("a run is marked when one of its counts is at least %d times the median of the same count over the %d runs of its kind before it (and at least %d), once there are %d such runs",
			storehealth.OutlierFactor, storehealth.OutlierWindow, storehealth.OutlierFactor, storehealth.OutlierMinRuns)}
	for _, p := range r.Pipelines {
		v.Pipelines = append(v.Pipelines, Link{Name: p, Href: pipelinePage(p)})
	}
	v.Recent = r.Runs[:min(recentRuns, len(r.Runs))]
	for _, run := range r.Runs {
		if len(run.Outliers) > 0 {
			v.Outliers = append(v.Outliers, run)
		}
	}
	if r.Memory.OldestAge > 0 {
		v.OldestAge = ago(time.Duration(r.Memory.OldestAge) * time.Second)
	}
	v.Since = "the whole history"
	if !r.Since.IsZero() {
		v.Since = "since " + r.Since.UTC().Format("2006-01-02 15:04 UTC")
	}
	v.MemoryCharts, v.PlaybookCharts, v.RunCharts = memoryCharts(r), playbookCharts(r), runCharts(r)
	return v
}

// stepName is the x axis of the series.
func stepName(r *storehealth.Report) string {
	switch r.Step {
	case storehealth.PerDay:
		return "day (UTC)"
	case storehealth.PerWeek:
		return "week starting (UTC)"
	}
	return "run (time, UTC)"
}

// labels are the points of the series on the x axis.
func labels(r *storehealth.Report) []string {
	out := make([]string, len(r.Series))
	for i, p := range r.Series {
		if r.Step == storehealth.PerRun {
			out[i] = p.Start.UTC().Format("01-02 15:04")
		} else {
			out[i] = p.Start.UTC().Format("2006-01-02")
		}
	}
	return out
}

// counts is one series of the report's points.
func counts(r *storehealth.Report, name string, f func(storehealth.Point) int) svgchart.Series {
	s := svgchart.Series{Name: name, Values: make([]float64, len(r.Series))}
	for i, p := range r.Series {
		s.Values[i] = float64(f(p))
	}
	return s
}

func countOf(names ...string) func(storehealth.Point) int {
	return func(p storehealth.Point) int {
		n := 0
		for _, k := range names {
			n += p.Counts[k]
		}
		return n
	}
}

func memoryCharts(r *storehealth.Report) []template.HTML {
	x, ls := stepName(r), labels(r)
	flow := svgchart.Chart{ID: "memory-flow", Title: "Memory entries per " + r.Step, XLabel: x, YLabel: "entries", Labels: ls,
		Desc: "Entries ingested, and what the memory passes did with them.",
		Series: []svgchart.Series{
			counts(r, "ingested", countOf(storehealth.Ingested)),
			counts(r, "kept", countOf(storehealth.Kept)),
			counts(r, "left for reflection", countOf(storehealth.LeftForReflection)),
			counts(r, "late", countOf(storehealth.Late)),
		}}
	var promoted []svgchart.Series
	for _, ch := range storehealth.Channels {
		promoted = append(promoted, counts(r, "channel "+ch, countOf("promoted_"+strings.ToLower(ch))))
	}
	promote := svgchart.Chart{ID: "memory-promoted", Title: "Memories promoted per " + r.Step + ", by channel", XLabel: x, YLabel: "entries",
		Labels: ls, Stacked: true, Series: promoted, Desc: "Promotions to confirmed memory by channel A (score and confidence), B (surprisal), C (entities and tags)."}
	trash := svgchart.Chart{ID: "memory-trashed", Title: "Memories trashed per " + r.Step, XLabel: x, YLabel: "entries", Labels: ls, Stacked: true,
		Desc:   "Entries trashed by memory passes: duplicates of a newer entry, and entries whose score was under 0.3.",
		Series: []svgchart.Series{counts(r, "duplicates", countOf(storehealth.Duplicates)), counts(r, "low score", countOf(storehealth.Discarded))}}
	var types []string
	for t := range r.Memory.Confirmed {
		types = append(types, t)
	}
	sort.Strings(types)
	conf := svgchart.Chart{ID: "memory-confirmed", Title: "Confirmed memories now, by type", XLabel: "type", YLabel: "memories", Labels: types,
		Desc: "How many confirmed memories the store holds of each type."}
	s := svgchart.Series{Name: "confirmed"}
	for _, t := range types {
		s.Values = append(s.Values, float64(r.Memory.Confirmed[t]))
	}
	conf.Series = []svgchart.Series{s}
	return []template.HTML{flow.HTML(), promote.HTML(), trash.HTML(), conf.HTML()}
}

func playbookCharts(r *storehealth.Report) []template.HTML {
	x, ls := stepName(r), labels(r)
	cats := map[string]bool{}
	for _, p := range r.Series {
		for c := range p.Active {
			cats[c] = true
		}
	}
	for c := range r.Playbook.ByCategory {
		cats[c] = true
	}
	var names []string
	for c := range cats {
		names = append(names, c)
	}
	sort.Strings(names)
	var active []svgchart.Series
	for _, c := range names {
		active = append(active, counts(r, c, func(p storehealth.Point) int { return p.Active[c] }))
	}
	act := svgchart.Chart{ID: "playbook-active", Title: "Active bullets by category", XLabel: x, YLabel: "bullets", Labels: ls, Line: true, Series: active,
		Desc: "Active playbook bullets of each category after each playbook curation."}
	changes := svgchart.Chart{ID: "playbook-changes", Title: "Playbook changes per " + r.Step, XLabel: x, YLabel: "bullets", Labels: ls,
		Desc: "Bullets added, reinforced, merged and archived by playbook curations.",
		Series: []svgchart.Series{counts(r, "new", countOf(storehealth.New)), counts(r, "reinforced", countOf(storehealth.Reinforced)),
			counts(r, "merged", countOf(storehealth.Merged)), counts(r, "archived", countOf(storehealth.Archived))}}
	conf := svgchart.Chart{ID: "playbook-confidence", Title: "Active bullets by confidence", XLabel: "confidence", YLabel: "bullets",
		Desc: "The distribution of the active bullets' confidence, in tenths."}
	cs := svgchart.Series{Name: "bullets"}
	for i, n := range r.Playbook.Confidence {
		conf.Labels = append(conf.Labels, fmt.Sprintf("%.1f–%.1f", float64(i)/10, float64(i+1)/10))
		cs.Values = append(cs.Values, float64(n))
	}
	conf.Series = []svgchart.Series{cs}
	hh := svgchart.Chart{ID: "playbook-counters", Title: "Active bullets by helpful and harmful count", XLabel: "count", YLabel: "bullets",
		Desc: "How many active bullets have each number of helpful and of harmful marks."}
	hs, ms := svgchart.Series{Name: "helpful"}, svgchart.Series{Name: "harmful"}
	for i, lo := range storehealth.CounterBins {
		label := fmt.Sprint(lo)
		if i+1 < len(storehealth.CounterBins) && storehealth.CounterBins[i+1] > lo+1 {
			label = fmt.Sprintf("%d–%d", lo, storehealth.CounterBins[i+1]-1)
		} else if i+1 == len(storehealth.CounterBins) {
			label = fmt.Sprintf("%d+", lo)
		}
		hh.Labels = append(hh.Labels, label)
		hs.Values = append(hs.Values, float64(r.Playbook.Helpful[i]))
		ms.Values = append(ms.Values, float64(r.Playbook.Harmful[i]))
	}
	hh.Series = []svgchart.Series{hs, ms}
	return []template.HTML{act.HTML(), changes.HTML(), conf.HTML(), hh.HTML()}
}

func runCharts(r *storehealth.Report) []template.HTML {
	kinds := map[string]bool{}
	for _, p := range r.Series {
		for k := range p.Kinds {
			kinds[k] = true
		}
	}
	var names []string
	for k := range kinds {
		names = append(names, k)
	}
	sort.Strings(names)
	var series []svgchart.Series
	for _, k := range names {
		series = append(series, counts(r, k, func(p storehealth.Point) int { return p.Kinds[k] }))
	}
	c := svgchart.Chart{ID: "runs-timeline", Title: "Curator runs per " + r.Step + ", by kind", XLabel: stepName(r), YLabel: "runs",
		Labels: labels(r), Stacked: true, Series: series, Desc: "How many curator runs of each kind the history records."}
	return []template.HTML{c.HTML()}
}

// ago says a duration in the largest whole unit.
func ago(d time.Duration) string {
	switch {
	case d >= 48*time.Hour:
		return fmt.Sprintf("%d days", int(d.Hours()/24))
	case d >= 2*time.Hour:
		return fmt.Sprintf("%d hours", int(d.Hours()))
	case d >= 2*time.Minute:
		return fmt.Sprintf("%d minutes", int(d.Minutes()))
	}
	return fmt.Sprintf("%d seconds", int(d.Seconds()))
}

var storeTemplate = template.Must(template.New(templates.StoreDashboard).Funcs(template.FuncMap{
	"short": func(s string) string { return s[:min(12, len(s))] },
	"when":  func(t time.Time) string { return t.UTC().Format("2006-01-02 15:04 UTC") },
	"day": func(t time.Time) string {
		if t.IsZero() {
			return "never"
		}
		return t.UTC().Format("2006-01-02")
	},
	"counts": func(m map[string]int) string {
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = fmt.Sprintf("%d %s", m[k], strings.ReplaceAll(k, "_", " "))
		}
		return strings.Join(parts, ", ")
	},
	"f2":   func(v float64) string { return fmt.Sprintf("%.2f", v) },
	"path": url.PathEscape,
}).ParseFS(templates.FS, templates.StoreDashboard))

// RenderStore writes the store's page.
func RenderStore(v StoreView) ([]byte, error) {
	var b bytes.Buffer
	if err := storeTemplate.Execute(&b, v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
