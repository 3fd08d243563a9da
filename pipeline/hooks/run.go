package hooks

import (
	"context"
	"fmt"
	"strings"

	"github.com/curator-dev/curator/curate/playbook"
	"github.com/curator-dev/curator/mdstore"
	"github.com/curator-dev/curator/pipeline"
)

// The status of a hook.
const (
	// StatusCommitted: the curation changed the playbook, one commit.
	StatusCommitted = "committed"
	// StatusUnchanged: the curation found nothing to change.
	StatusUnchanged = "unchanged"
	// StatusListed: the review queue was listed (it changes nothing).
	StatusListed = "listed"
	// StatusFailed: the curation failed and wrote nothing.
	StatusFailed = "failed"
)

// Hook is one curation a transition triggered, and what came of it.
type Hook struct {
	Event    Event    `json:"event"`
	Curation Curation `json:"curation"`
	// Command is the command the curation stands for.
	Command string `json:"command"`
	Status  string `json:"status"`
	// Commit is the curation's own commit ("" when it made none).
	Commit  string `json:"commit"`
	Summary string `json:"summary"`
	// Error is why the curation failed, or the invalid inputs it skipped.
	Error string `json:"error,omitempty"`
	// Skipped are the invalid inputs the curation left as they are: it
	// ran on the rest.
	Skipped []*mdstore.InvalidFile `json:"skipped"`
	// Waiting are the bullets that wait for review (review).
	Waiting []playbook.ReviewItem `json:"waiting,omitempty"`
	// Report is the curation's report, as its command's --json prints it.
	Report *playbook.Report `json:"report,omitempty"`
}

// Failed reports whether the curation failed.
func (h Hook) Failed() bool { return h.Status == StatusFailed }

// skipped records the invalid inputs a curation left as they are.
func (h *Hook) skipped(inv []*mdstore.InvalidFile) {
	h.Skipped = append(h.Skipped, inv...)
	if len(inv) > 0 {
		h.Error = fmt.Sprintf("skipped %d invalid input(s), left as they are: %s", len(inv), inv[0].Error())
		if len(inv) > 1 {
			h.Error += ", …"
		}
	}
}

// Request is the transition whose curations run.
type Request struct {
	Pipeline *pipeline.Pipeline
	From, To string
	// Saving holds the store as the transition's command did; each
	// curation's commit records its command, then the transition's.
	Saving playbook.Saving
}

// Run runs the curations the transition's events trigger in store s, in
// the events' order, each through its command's use-case (one commit
// each, or none when it finds nothing to change); a curation that fails
// writes nothing and the next ones still run. The error is config.yaml's
// `pipelines.hooks` that cannot be read: then nothing runs.
func Run(ctx context.Context, s *mdstore.Store, req Request) ([]Hook, error) {
	cfg, err := LoadConfig(s)
	if err != nil {
		return nil, err
	}
	plan := cfg.Plan(req.Pipeline.Name)
	var out []Hook
	for _, ev := range EventsOf(req.Pipeline, req.From, req.To) {
		c := plan[ev]
		if c == None || c == "" {
			continue
		}
		out = append(out, run(ctx, s, ev, c, req.Saving))
	}
	return out, nil
}

// run runs curation c, triggered by ev.
func run(ctx context.Context, s *mdstore.Store, ev Event, c Curation, sv playbook.Saving) Hook {
	h := Hook{Event: ev, Curation: c, Command: c.Command(), Skipped: []*mdstore.InvalidFile{}}
	sv.Tx.Command = fmt.Sprintf("%s (%s: %s)", c.Command(), ev.Said(), orWords(sv.Tx.Command))
	if c == Review {
		q, err := playbook.ListReviewQueue(ctx, s)
		if err != nil {
			return h.failed(err)
		}
		h.Status, h.Waiting = StatusListed, q.Bullets
		h.skipped(q.Skipped)
		h.Summary = waitingSummary(q.Bullets)
		return h
	}
	set := playbook.DefaultSettings()
	set.Maintenance = c == Maintenance || c == Dedup
	set.AutoMerge = c == Dedup
	rep, err := playbook.Curate(ctx, s, playbook.CurateRequest{Settings: set, Saving: sv})
	if err != nil {
		return h.failed(err)
	}
	h.Report, h.Commit = rep, rep.Commit
	h.skipped(rep.Skipped)
	h.Status = StatusCommitted
	if rep.Commit == "" {
		h.Status = StatusUnchanged
	}
	h.Summary = curationSummary(rep)
	return h
}

func (h Hook) failed(err error) Hook {
	h.Status, h.Error = StatusFailed, err.Error()
	h.Summary = "failed: " + h.Error
	return h
}

// orWords is the transition's command line, or words for it.
func orWords(command string) string {
	if command == "" {
		return "pipeline transition"
	}
	return command
}

// curationSummary is one line of what a curation did.
func curationSummary(rep *playbook.Report) string {
	var parts []string
	for _, t := range playbook.ActionTypes {
		if n := rep.Counts[t]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, t))
		}
	}
	if len(parts) == 0 {
		parts = append(parts, "nothing to change")
	}
	what := fmt.Sprintf("%d reflection(s) merged", len(rep.ReflectionsMerged))
	if rep.Maintenance != nil {
		what += ", playbook tidied"
	}
	if n := len(rep.ReflectionsHeld); n > 0 {
		what += fmt.Sprintf(", %d held (they look like they hold a secret)", n)
	}
	return what + ": " + strings.Join(parts, ", ")
}

// waitingSummary is one line of the review queue.
func waitingSummary(q []playbook.ReviewItem) string {
	if len(q) == 0 {
		return "no bullet waits for review"
	}
	ids := make([]string, len(q))
	for i, it := range q {
		ids[i] = fmt.Sprintf("%s (p%d)", it.ID, it.Priority)
	}
	n := fmt.Sprintf("%d bullets wait", len(q))
	if len(q) == 1 {
		n = "1 bullet waits"
	}
	return n + " for review: " + strings.Join(ids, ", ")
}

// BriefWarnings are the lines the next agent's brief gets about the
// curations: each that failed, the invalid inputs they left, and the
// bullets that wait for review. Curations that went well are in the
// transition's report and the history, not the brief.
func BriefWarnings(hooks []Hook) []string {
	var out []string
	for _, h := range hooks {
		switch {
		case h.Failed():
			out = append(out, fmt.Sprintf("Curation at %s (`%s`) failed: %s; the playbook was left as it was: run it again once this is fixed",
				h.Event.Said(), h.Command, h.Error))
		case h.Status == StatusListed && len(h.Waiting) > 0:
			out = append(out, fmt.Sprintf("Review at approval: %s; the product owner approves or rejects them with `curator context review approve|reject ID`",
				h.Summary))
		}
		for _, inv := range h.Skipped {
			out = append(out, fmt.Sprintf("Curation at %s (`%s`) skipped %s; it is left as it is", h.Event.Said(), h.Command, inv.Error()))
		}
	}
	return out
}
