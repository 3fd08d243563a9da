package storehealth

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/curator-dev/curator/history"
	"github.com/curator-dev/curator/mdstore"
)

// Run is what one curator run did, as its commit (and metrics file) says.
type Run struct {
	Commit  string    `json:"commit"`
	Time    time.Time `json:"time"`
	RunID   string    `json:"run_id"`
	Kind    string    `json:"kind"`
	Command string    `json:"command,omitempty"`
	Summary string    `json:"summary"`
	// Counts are the summary's "N word" pairs (words joined by "_":
	// "left_for_reflection"), and what the run's decisions add: ingested
	// (a memory added), promoted_a, promoted_b, promoted_c (by channel),
	// conflicts (recorded by sync) and invalid (inputs skipped, from a
	// playbook run's metrics).
	Counts map[string]int `json:"counts,omitempty"`
	// Promoted are the memories the run promoted, by type.
	Promoted map[string]int `json:"promoted_by_type,omitempty"`
	// Active is the playbook's active bullets by category after the run,
	// when its metrics file records them (nil otherwise).
	Active map[string]int `json:"active_by_category,omitempty"`
}

// Names of the counts a run may have.
const (
	Ingested          = "ingested"
	Promoted          = "promoted"
	Duplicates        = "duplicates"
	Discarded         = "discarded"
	Kept              = "kept"
	LeftForReflection = "left_for_reflection"
	Late              = "late"
	New               = "new"
	Reinforced        = "reinforced"
	Merged            = "merged"
	Proposed          = "proposed"
	Archived          = "archived"
	Conflicts         = "conflicts"
	Invalid           = "invalid"
)

// Channels are the promotion channels (SPEC §3.2), each counted as
// promoted_<channel in lower case>.
var Channels = []string{"A", "B", "C"}

// summarise reads one commit as a run; false for a commit curator did not
// make. metrics reads a store-relative file of the work tree.
func summarise(c history.Commit, metrics func(rel string) ([]byte, error)) (Run, bool) {
	h := history.ParseMessage(c.Message)
	if h.RunID == "" {
		return Run{}, false
	}
	r := Run{Commit: c.Hash, Time: c.Time, RunID: h.RunID, Kind: h.Kind, Command: h.Command, Summary: h.Summary,
		Counts: h.Counts}
	add := func(name string, n int) {
		if r.Counts == nil {
			r.Counts = map[string]int{}
		}
		r.Counts[name] += n
	}
	if strings.HasPrefix(h.Summary, "memory add ") {
		add(Ingested, 1)
	}
	for _, line := range decisions(c.Message) {
		switch {
		case strings.HasPrefix(line, "promote "):
			// promote ID to confirmed/TYPE (channel A, score 0.88)
			if _, rest, ok := strings.Cut(line, " to confirmed/"); ok {
				typ, _, _ := strings.Cut(rest, " ")
				if r.Promoted == nil {
					r.Promoted = map[string]int{}
				}
				r.Promoted[typ]++
			}
			if _, rest, ok := strings.Cut(line, "(channel "); ok {
				ch, _, _ := strings.Cut(rest, ",")
				ch = strings.TrimSuffix(ch, ")")
				add("promoted_"+strings.ToLower(strings.TrimSpace(ch)), 1)
			}
		case strings.HasPrefix(line, "conflict "):
			add(Conflicts, 1)
		}
	}
	if r.Kind == "context" && metrics != nil {
		if data, err := metrics(metricsPath(r)); err == nil {
			var m struct {
				After struct {
					ByCategory map[string]int `json:"by_category"`
				} `json:"after"`
				InvalidFiles int `json:"invalid_files"`
			}
			if json.Unmarshal(data, &m) == nil {
				r.Active = m.After.ByCategory
				if r.Active == nil {
					r.Active = map[string]int{}
				}
				if m.InvalidFiles > 0 {
					add(Invalid, m.InvalidFiles)
				}
			}
		}
	}
	return r, true
}

// metricsPath is where a playbook run writes its metrics: the month of its
// run id's time (mdstore.MetricsPath).
func metricsPath(r Run) string {
	at, err := time.Parse("20060102T150405Z", strings.SplitN(r.RunID, "-", 2)[0])
	if err != nil {
		at = r.Time
	}
	return mdstore.MetricsPath(at, r.RunID)
}

// decisions are the lines between the summary and the trailers.
func decisions(msg string) []string {
	lines := strings.Split(strings.TrimRight(msg, "\n"), "\n")
	var out []string
	for _, l := range lines[1:] {
		if strings.HasPrefix(l, "Curator-") {
			break
		}
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

// readIn reads store-relative files of the store at dir.
func readIn(dir string) func(rel string) ([]byte, error) {
	return func(rel string) ([]byte, error) { return os.ReadFile(filepath.Join(dir, filepath.FromSlash(rel))) }
}
