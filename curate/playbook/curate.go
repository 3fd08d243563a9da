package playbook

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/curator-dev/curator/internal/refuse"
	"github.com/curator-dev/curator/mdstore"
)

// CurateRequest is one `context curate` run, from the command line, the
// curate_playbook tool or watch.
type CurateRequest struct {
	Settings Settings
	// ThresholdSet and MinConfidenceSet tell a setting given from its
	// default: config.yaml's context section applies to those not given.
	ThresholdSet     bool
	MinConfidenceSet bool
	// DryRun plans and reports, and changes nothing.
	DryRun bool
	// Output is a file that also gets the report ("" none): JSON with
	// OutputJSON, else markdown.
	Output     string
	OutputJSON bool
	Saving     Saving
}

// Check refuses settings that cannot be used: a reflection id that cannot
// name a record, a threshold under the merge floor or over 1, a minimum
// confidence outside [0,1].
func (r CurateRequest) Check() error {
	set := r.Settings
	if err := checkID("reflection_id", set.ReflectionID); err != nil {
		return err
	}
	if set.Threshold < MergeFloor || set.Threshold > 1 {
		return paramErrorf("similarity_threshold", "want a number from the merge floor %.1f to 1, not %v", MergeFloor, set.Threshold)
	}
	return checkUnit("min_confidence", set.MinConfidence)
}

// Curate merges the pending reflections into the playbook (and, with
// Maintenance, tidies it) under the store's lock: one commit unless
// DryRun. The settings not given come from config.yaml. A reflection id
// that is not pending is refused as a request; skipped invalid inputs are
// in the report (Skipped).
func Curate(_ context.Context, s *mdstore.Store, req CurateRequest) (*Report, error) {
	if err := req.Check(); err != nil {
		return nil, err
	}
	req.Settings.Category = categoryFilter(req.Settings.Category)
	if !req.DryRun {
		if err := allowed(s, req.Saving, "curating the playbook"); err != nil {
			return nil, err
		}
	}
	set := req.Settings
	if !req.ThresholdSet {
		set.Threshold = s.Config.Context.SimilarityThreshold
	}
	if !req.MinConfidenceSet {
		set.MinConfidence = s.Config.Context.MinConfidence
	}
	tx, err := s.Begin(req.Saving.Tx)
	if err != nil {
		return nil, err
	}
	defer tx.Close()
	now := s.Now()
	r, err := PrepareCuration(s, set, mdstore.NewRunID(now), now)
	if errors.Is(err, mdstore.ErrNotFound) {
		return nil, refuse.Request(err)
	}
	if err != nil {
		return nil, err
	}
	commit := ""
	if !req.DryRun {
		if commit, err = tx.Save(r.Run, req.Saving.Save...); err != nil {
			return nil, err
		}
	}
	rep := r.Report(commit, req.DryRun)
	rep.Skipped = r.Invalid
	rep.NothingToChange = !req.DryRun && r.Changes.Empty()
	if req.Output != "" {
		if err := rep.writeFile(req.Output, req.OutputJSON); err != nil {
			return nil, err
		}
	}
	return &rep, nil
}

// writeFile saves the report to path: indented JSON, or the markdown
// summary.
func (rep Report) writeFile(path string, asJSON bool) error {
	var buf bytes.Buffer
	if asJSON {
		enc := json.NewEncoder(&buf)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(rep); err != nil {
			return err
		}
	} else {
		rep.WriteSummary(&buf, true)
	}
	if err := mdstore.WriteFileAtomic(path, buf.Bytes(), 0o644); err != nil {
		return fmt.Errorf("--output: %w", err)
	}
	return nil
}
