package memory

import "github.com/curator-dev/curator/mdstore"

// CurateReport is the outcome of a memory pass as `memory curate --json`
// prints it (fields in the order of their keys).
type CurateReport struct {
	Candidates []string               `json:"candidates"`
	Commit     string                 `json:"commit"`
	Discarded  []Action               `json:"discarded"`
	DryRun     bool                   `json:"dry_run"`
	Duplicates []Action               `json:"duplicates"`
	Invalid    []*mdstore.InvalidFile `json:"invalid"`
	Kept       []Action               `json:"kept"`
	// Late: candidates older than the watermark that no pass had seen.
	Late []string `json:"late"`
	// LeftForReflection: entries sharing a dedup key with other authors'.
	LeftForReflection []Action `json:"left_for_reflection"`
	// ObservationsClosed: the observation windows that were due after
	// the pass, closed in its commit (see PlanObservations).
	ObservationsClosed []Closing `json:"observations_closed"`
	Promoted           []Action  `json:"promoted"`
	RunID              string    `json:"run_id"`
	Window             Window    `json:"window"`
	// NothingToChange: the pass found nothing to move or write.
	NothingToChange bool `json:"-"`
}

// Report is the pass's report once it was saved as commit (empty for a
// dry run, with --no-commit or when nothing changed).
func (r *Run) Report(commit string, dryRun bool) CurateReport {
	p := r.Plan
	inv := r.Invalid
	if inv == nil {
		inv = []*mdstore.InvalidFile{}
	}
	return CurateReport{
		Candidates: p.Candidates, Commit: commit, Discarded: p.Discarded, DryRun: dryRun,
		Duplicates: p.Duplicates, Invalid: inv, Kept: p.Kept, Late: p.Late, LeftForReflection: p.LeftForReflection, Promoted: p.Promoted,
		ObservationsClosed: nonNil(r.Closed), RunID: r.Commit.RunID, Window: p.Window, NothingToChange: r.Changes.Empty(),
	}
}
