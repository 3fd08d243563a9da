package storehealth

import (
	"context"
	"slices"
	"time"

	"github.com/curator-dev/curator/mdstore"
	"github.com/curator-dev/curator/pipeline"
)

// Request asks for the store's health.
type Request struct {
	// Since keeps the runs at or after it (zero: the whole history).
	Since time.Time
	// Now is the time of the report (zero: the store's clock).
	Now time.Time
}

// Report is the store's health: its runs over time and its state now.
type Report struct {
	At    time.Time `json:"generated_at"`
	Since time.Time `json:"since,omitzero"`
	// Head is the commit the history was read from ("" before the first).
	Head string `json:"head"`
	// Step is what a point of Series stands for: run, day or week.
	Step   string  `json:"step"`
	Series []Point `json:"series"`
	// Runs are the runs of the range, newest first.
	Runs     []RunView `json:"runs"`
	Memory   Memory    `json:"memory"`
	Playbook Playbook  `json:"playbook"`
	// Pipelines are the projects with a pipeline state in the store.
	Pipelines []string `json:"pipelines"`
	// Walked says how much of the history was read from git.
	Walked Walked `json:"history"`
	// Invalid are the files that could not be read (left as they are).
	Invalid []*mdstore.InvalidFile `json:"invalid"`
}

// RunView is one run of the timeline: what it did, its outliers and the
// commands that show it.
type RunView struct {
	Run
	Outliers []Outlier `json:"outliers,omitempty"`
	// Show is the command that prints what the run changed.
	Show string `json:"show"`
}

// Read computes the store's health: the history since the cache's head read
// from git, the memory folders counted, the inbox's and the playbook's
// frontmatter read through their indexes. It changes no record; it writes
// only caches.
func Read(_ context.Context, s *mdstore.Store, req Request) (*Report, error) {
	now := req.Now
	if now.IsZero() {
		now = s.Now()
	}
	all, head, walked, err := runsOf(s.Dir)
	if err != nil {
		return nil, err
	}
	r := &Report{At: now.UTC(), Since: req.Since, Head: head, Walked: walked}
	// oldest first from here
	slices.Reverse(all)
	marks := outliers(all)
	first := 0
	for first < len(all) && !req.Since.IsZero() && all[first].Time.Before(req.Since) {
		first++
	}
	var active map[string]int
	for _, run := range all[:first] {
		if run.Active != nil {
			active = run.Active
		}
	}
	inRange := all[first:]
	r.Step = stepOf(inRange)
	r.Series = seriesOf(inRange, r.Step, active)
	if r.Series == nil {
		r.Series = []Point{}
	}
	r.Runs = make([]RunView, 0, len(inRange))
	for i := len(inRange) - 1; i >= 0; i-- {
		run := inRange[i]
		r.Runs = append(r.Runs, RunView{Run: run, Outliers: marks[first+i], Show: "curator show " + short(run.Commit)})
	}
	var bad []*mdstore.InvalidFile
	if r.Memory, bad, err = readMemory(s, now); err != nil {
		return nil, err
	}
	r.Invalid = append(r.Invalid, bad...)
	if r.Playbook, bad, err = readPlaybook(s, now); err != nil {
		return nil, err
	}
	r.Invalid = append(r.Invalid, bad...)
	if r.Invalid == nil {
		r.Invalid = []*mdstore.InvalidFile{}
	}
	if r.Pipelines, err = (pipeline.Home{Dir: s.Path("pipelines")}).Projects(); err != nil {
		return nil, err
	}
	if r.Pipelines == nil {
		r.Pipelines = []string{}
	}
	return r, nil
}

// short is a commit's hash as curator prints it.
func short(commit string) string {
	if len(commit) > 12 {
		return commit[:12]
	}
	return commit
}
