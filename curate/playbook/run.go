package playbook

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/curator-dev/curator/curate/playbook/bulletid"
	"github.com/curator-dev/curator/curate/similar"
	"github.com/curator-dev/curator/mdstore"
)

// Engine returns the similarity engine that config.yaml's `similarity:`
// section names (the lexical engine by default). It is the one builder of
// engines: curate, query, review and `similarity score` all use it. A
// relative cache_file is taken from the store folder; the default is
// .curator/.cache/embeddings.json (git-ignored).
func Engine(s *mdstore.Store) (similar.Engine, error) {
	cfg := s.Config.Similarity
	if cfg.CacheFile == "" {
		cfg.CacheFile = s.Path(".cache/embeddings.json")
	} else if !filepath.IsAbs(cfg.CacheFile) {
		cfg.CacheFile = s.Path(cfg.CacheFile)
	}
	return similar.New(cfg)
}

// Load reads the playbook: every bullet (active and archived) and every id
// the store ever used, with the active bullets in the matcher (nil: no
// matcher). Unreadable files are returned, not fatal. With the lexical
// engine the bullets come from the bullet index, and a bullet's file is
// read only when the run needs its text.
func Load(s *mdstore.Store, newMatcher func() Matcher, now time.Time) (*Playbook, []*mdstore.InvalidFile, error) {
	e, err := Engine(s)
	if err != nil {
		e = nil // read every file; the commands that score report the settings
	}
	return load(s, e, newMatcher, now, false)
}

func load(s *mdstore.Store, e similar.Engine, newMatcher func() Matcher, now time.Time, readOnly bool) (*Playbook, []*mdstore.InvalidFile, error) {
	pb, invalid, err := loadIndexed(s, e, now, readOnly)
	if err != nil || pb != nil {
		if pb != nil && newMatcher != nil {
			pb.UseMatcher(newMatcher)
		}
		return pb, invalid, err
	}
	list, err := s.ListBullets(true)
	if err != nil {
		return nil, nil, err
	}
	known, bad, err := bulletid.Known(s, list)
	if err != nil {
		return nil, nil, err
	}
	prefixes := s.Config.IDPrefixes
	ids := bulletid.NewAllocator(prefixes, known...)
	pb = New(list.All(), ids, newMatcher, now) // no id twice: ListBullets reports those files
	pb.Secrets, pb.sharedIDs, pb.sharing = s.Secrets(), list.SharedIDs, list.Sharing
	return pb, append(list.Invalid, bad...), nil
}

// Run is a prepared `context curate` run: its plan, the files it
// changes, its commit message and what it could not read (the embedded
// mdstore.Run, which the caller saves).
type Run struct {
	*mdstore.Run
	RunID    string
	Plan     *Plan
	Playbook *Playbook
	Before   Stats
	After    Stats
	Metrics  map[string]any
	// Notes are said in the report (the engine fell back to lexical).
	Notes []string
}

// PrepareCuration loads the store, plans the run and builds its changeset
// (bullets, merge log, metrics, reflections moved to merged/). Nothing is
// written: the caller saves r.Run (or not, for --dry-run). An engine that
// failed while scoring stops the run with an *EngineError.
func PrepareCuration(s *mdstore.Store, set Settings, runID string, now time.Time) (*Run, error) {
	pb, e, invalid, err := Open(s, true, now)
	if err != nil {
		return nil, err
	}
	refls, err := s.ListReflections("pending")
	if err != nil {
		return nil, err
	}
	invalid = append(invalid, refls.Invalid...)
	if set.ReflectionID != "" {
		found := false
		for _, r := range refls.Reflections {
			found = found || r.ID == set.ReflectionID
		}
		if !found {
			return nil, fmt.Errorf("%w: pending reflection %s", mdstore.ErrNotFound, set.ReflectionID)
		}
	}
	r := &Run{RunID: runID, Playbook: pb, Before: StatsOf(pb)}
	r.Run = &mdstore.Run{Changes: &mdstore.Changeset{}, Invalid: invalid,
		Commit: mdstore.CommitInfo{RunID: runID, At: now}}
	plan, err := PlanCuration(pb, refls.Reflections, set)
	if err != nil {
		return nil, err
	}
	if err := CheckEngine(e); err != nil {
		return nil, err
	}
	if note := EngineNote(e); note != "" {
		r.Notes = append(r.Notes, note)
	}
	pb.Matcher = nil // planned: the candidate indexes are not needed while the run is saved
	r.Plan = plan
	for _, h := range plan.Held {
		line := 0
		if h.Field == "file" {
			line = h.Line
		}
		r.Invalid = append(r.Invalid, &mdstore.InvalidFile{Path: h.Path, Line: line, Msg: h.Problem() + "; the reflection stays pending and nothing of it is written"})
	}
	r.After = StatsOf(pb)
	cs := r.Changes
	if err := pb.Changes(s, cs); err != nil {
		return nil, err
	}
	for _, o := range plan.Reflections {
		var data []byte
		to := o.Reflection.Path
		if o.Complete {
			data, err = o.Reflection.WithStatus("merged")
			to = mdstore.ReflectionPath("merged", o.Reflection.ID, o.Reflection.JSON)
		} else {
			data, err = o.Reflection.WithCurated(o.Done)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", o.Reflection.Path, err)
		}
		cs.Move(o.Reflection.Path, to, data)
	}
	r.Metrics = r.metrics(now)
	if len(plan.Actions) > 0 || !cs.Empty() {
		addMergeLog(r.Run, plan.Actions)
		m, _ := json.MarshalIndent(r.Metrics, "", "  ")
		cs.Write(mdstore.MetricsPath(now, runID), append(m, '\n'))
	}
	r.Commit.Summary = r.summaryLine()
	r.Decide(Decisions(plan.Actions)...)
	return r, nil
}
func (r *Run) summaryLine() string {
	p := r.Plan
	// archived counts every bullet the commit moves to the archive: the
	// ones archived or pruned, and the ones a merge combined
	return fmt.Sprintf("context curate: %d new, %d reinforced, %d merged, %d proposed, %d archived",
		p.Count(ActNewBullet), p.Count(ActIncrementHelpful), p.Count(ActMergeSimilar), p.Count(ActProposal), len(r.Playbook.ArchivedNow()))
}

// Decisions renders actions as one line each, for commit messages.
func Decisions(acts []Action) []string {
	out := make([]string, 0, len(acts))
	for _, a := range acts {
		line := a.Type + " " + a.Subject()
		switch {
		case a.BulletID != "" && len(a.MergedFrom) > 0:
			line += " ← " + strings.Join(a.MergedFrom, " + ")
		case a.TargetBulletID != "" && a.BulletID != "":
			line += " ← " + a.TargetBulletID
		case len(a.MergedFrom) > 0:
			line += " (merging " + strings.Join(a.MergedFrom, " + ") + ")"
		}
		if a.ReflectionID != "" {
			line += fmt.Sprintf(" (reflection %s", a.ReflectionID)
			if a.Lesson > 0 {
				line += fmt.Sprintf(" lesson %d", a.Lesson)
			}
			line += ")"
		}
		out = append(out, line)
	}
	return out
}

func (r *Run) metrics(now time.Time) map[string]any {
	counts := map[string]int{}
	for _, t := range ActionTypes {
		counts[t] = r.Plan.Count(t)
	}
	refl := make([]string, 0, len(r.Plan.Reflections))
	for _, o := range r.Plan.Reflections {
		if o.Complete {
			refl = append(refl, o.Reflection.ID)
		}
	}
	sort.Strings(refl)
	m := map[string]any{
		"run_id": r.RunID, "at": now.UTC(), "actions": counts,
		"reflections_merged": refl, "reflections_held": len(r.Plan.Held),
		"before": r.Before, "after": r.After, "invalid_files": len(r.Invalid),
	}
	if mr := r.Plan.Maintenance; mr != nil {
		m["maintenance"] = map[string]any{
			"exact_duplicate_groups": len(mr.ExactGroups), "exact_duplicate_extra_copies": mr.ExactExtra,
			"near_duplicate_pairs": len(mr.NearPairs), "overlapping_pairs": len(mr.Overlapping),
		}
	}
	return m
}
