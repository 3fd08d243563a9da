package playbook

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/curator-dev/curator/curate/similar"
	"github.com/curator-dev/curator/mdstore"
)

// Open loads the playbook for a command. withMatcher indexes the active
// bullets with the engine config.yaml names, and returns that engine (nil
// without a matcher): the caller checks it with CheckEngine once it has
// scored.
func Open(s *mdstore.Store, withMatcher bool, now time.Time) (*Playbook, similar.Engine, []*mdstore.InvalidFile, error) {
	return open(s, withMatcher, now, false)
}

// Read is Open for a command that changes no bullet (query, stats,
// inject, prompt): the ids the store ever used are not gathered, so the
// playbook cannot allocate an id that is not already a bullet's.
func Read(s *mdstore.Store, withMatcher bool, now time.Time) (*Playbook, similar.Engine, []*mdstore.InvalidFile, error) {
	return open(s, withMatcher, now, true)
}

func open(s *mdstore.Store, withMatcher bool, now time.Time, readOnly bool) (*Playbook, similar.Engine, []*mdstore.InvalidFile, error) {
	e, err := Engine(s)
	if err != nil {
		if withMatcher {
			return nil, nil, nil, err
		}
		e = nil // read every file; the commands that score report the settings
	}
	var newMatcher func() Matcher
	if withMatcher {
		newMatcher = func() Matcher { return similar.NewIndex(e) }
	}
	pb, invalid, err := load(s, e, newMatcher, now, readOnly)
	if err == nil {
		pb.Sensitive, err = LoadSensitivity(s)
	}
	if !withMatcher {
		e = nil
	}
	return pb, e, invalid, err
}

// EngineError is a similarity engine that failed while it scored (its
// server did not answer): the scores of the run are wrong, so the run
// stops and changes nothing.
type EngineError struct{ Err error }

func (e *EngineError) Error() string {
	return fmt.Sprintf("similarity engine failed: %v; nothing was changed (with similarity.fallback: local in config.yaml, curator scores with the lexical engine when the server is down)", e.Err)
}

func (e *EngineError) Unwrap() error { return e.Err }

// CheckEngine returns an *EngineError when e failed while scoring, nil
// when it scored every pair (or fell back to the lexical engine, as
// similarity.fallback: local asks).
func CheckEngine(e similar.Engine) error {
	if f, ok := e.(interface{ Err() error }); ok && f.Err() != nil {
		return &EngineError{Err: f.Err()}
	}
	return nil
}

// EngineNote says, for a run's report, that the engine fell back to the
// lexical engine because its server did not answer; "" when it did not.
func EngineNote(e similar.Engine) string {
	if e == nil {
		return ""
	}
	if name := e.Name(); strings.HasPrefix(name, "lexical (fallback") {
		return "similarity: scored with the " + name + ", as similarity.fallback: local asks"
	}
	return ""
}

// MergeLog renders the actions of a run as its merge-log file (one JSON
// line each). It is the one builder of merge logs: curate, apply, review
// and import all record their decisions with it.
func MergeLog(acts []Action, runID string, at time.Time) []byte {
	lines := make([]mdstore.MergeLogLine, len(acts))
	for i, a := range acts {
		lines[i] = a.LogLine(runID, at)
	}
	return mdstore.EncodeMergeLog(lines)
}

// addMergeLog writes the run's merge log into its changes.
func addMergeLog(r *mdstore.Run, acts []Action) {
	r.Changes.Write(mdstore.MergeLogPath(r.Commit.At, r.Commit.RunID), MergeLog(acts, r.Commit.RunID, r.Commit.At))
}

// ReflectionMove moves a pending reflection to merged/ with its new status.
type ReflectionMove struct {
	From, To string
	Data     []byte
	// ID is the reflection's id.
	ID string
}

// Record builds the run that records what acts did to pb: the bullet files,
// the reflections moved, the merge log and the commit message. A run that
// changes no file stays empty (saving it commits nothing).
func Record(s *mdstore.Store, pb *Playbook, acts []Action, summary string, moves ...ReflectionMove) (*mdstore.Run, error) {
	r := mdstore.NewRun(summary, pb.Now)
	if err := pb.Changes(s, r.Changes); err != nil {
		return nil, err
	}
	for _, m := range moves {
		r.Changes.Move(m.From, m.To, m.Data)
	}
	if r.Changes.Empty() {
		return r, nil
	}
	addMergeLog(r, acts)
	r.Decide(Decisions(acts)...)
	return r, nil
}

// AnsweredReflections returns the moves to merged/ of the pending
// reflections named by the actions' reflection_id (and of the ones named
// in also): the answer (of `context apply`) is their curation, so curate
// and the next prompt must not count their lessons again. A reflection
// holding a secret stays pending (it is never committed).
func AnsweredReflections(s *mdstore.Store, acts []Action, also ...string) ([]ReflectionMove, error) {
	pending, err := s.ListReflections("pending")
	if err != nil {
		return nil, err
	}
	return answered(s, pending.Reflections, acts, also...)
}

func answered(s *mdstore.Store, pending []*mdstore.Reflection, acts []Action, also ...string) ([]ReflectionMove, error) {
	named := map[string]bool{}
	for _, a := range acts {
		if a.ReflectionID != "" {
			named[a.ReflectionID] = true
		}
	}
	for _, id := range also {
		if id != "" {
			named[id] = true
		}
	}
	var out []ReflectionMove
	for _, r := range pending {
		if !named[r.ID] || r.CheckSecrets(s.Secrets()) != nil {
			continue
		}
		data, err := r.WithStatus("merged")
		if err != nil {
			return nil, fmt.Errorf("%s: %w", r.Path, err)
		}
		out = append(out, ReflectionMove{From: r.Path, To: mdstore.ReflectionPath("merged", r.ID, r.JSON), Data: data, ID: r.ID})
	}
	return out, nil
}

// applyRun carries out a curation_actions document (an LLM's answer to the
// prompt) on pb and builds its run, the reflections it answers moved to
// merged/: reflectionID (--reflection-id; "" the document's own
// reflection_id) and those its actions name. A refused document is an
// error wrapping ErrInvalidDocument; a reflectionID that is not pending is
// mdstore.ErrNotFound.
func applyRun(s *mdstore.Store, pb *Playbook, data []byte, source, reflectionID string) (*Applied, error) {
	pending, err := s.ListReflections("pending")
	if err != nil {
		return nil, err
	}
	ans := Answer{ReflectionID: reflectionID, Reflections: map[string]*mdstore.Reflection{}}
	for _, r := range pending.Reflections {
		ans.Reflections[r.ID] = r
	}
	if reflectionID != "" && ans.Reflections[reflectionID] == nil {
		return nil, fmt.Errorf("%w: pending reflection %s", mdstore.ErrNotFound, reflectionID)
	}
	acts, err := PlanAnswer(pb, data, ans)
	if err != nil {
		return nil, err
	}
	moves, err := answered(s, pending.Reflections, acts, reflectionID)
	if err != nil {
		return nil, err
	}
	out := &Applied{Actions: acts, Reflections: []string{}, Bullets: pb.Totals(acts)}
	for _, m := range moves {
		out.Reflections = append(out.Reflections, m.ID)
	}
	out.Run, err = Record(s, pb, acts, fmt.Sprintf("context apply %s: %d actions", source, len(acts)), moves...)
	return out, err
}

// Applied is what `context apply` did: its actions, the reflections it
// moved to merged/, each bullet it touched as it is now, and the run that
// records it.
type Applied struct {
	Actions     []Action
	Reflections []string
	Bullets     []BulletTotals
	Run         *mdstore.Run
}

// RefusedError is a request the playbook's rules refuse (a review the
// bullet's state does not allow); its message is the rule's.
type RefusedError struct{ Err error }

func (e *RefusedError) Error() string { return e.Err.Error() }

func (e *RefusedError) Unwrap() error { return e.Err }

// reviewRun approves or rejects a bullet (see PlanReview) and builds its run.
// An unknown bullet is mdstore.ErrNotFound; a refused review a *RefusedError.
func reviewRun(s *mdstore.Store, pb *Playbook, ids []string, approve bool) ([]Action, *mdstore.Run, error) {
	logs, _, err := s.ReadMergeLogs()
	if err != nil {
		return nil, nil, err
	}
	verb := "reject"
	if approve {
		verb = "approve"
	}
	var acts []Action
	summary := fmt.Sprintf("context review %s %s", verb, strings.Join(ids, ", "))
	for _, id := range ids {
		if b := pb.Bullet(id); len(ids) > 1 && b != nil && !b.IsActive {
			continue // merged by an earlier approval of this review
		}
		done, err := PlanReview(pb, logs, id, approve)
		if errors.Is(err, mdstore.ErrNotFound) {
			return nil, nil, err
		}
		if err != nil {
			return nil, nil, &RefusedError{err}
		}
		for _, a := range done {
			if a.Type == ActMergeSimilar {
				summary += fmt.Sprintf(": merged %s into %s", strings.Join(a.MergedFrom, " + "), a.BulletID)
			}
		}
		acts = append(acts, done...)
	}
	if arch := pb.ArchivedNow(); len(arch) > 0 {
		summary += fmt.Sprintf(", archived %s", strings.Join(arch, ", "))
	}
	run, err := Record(s, pb, acts, summary)
	return acts, run, err
}

// importRun adds the imported bullets to pb (see PlanImport) and builds the
// run; refused are the bullets left out (a secret), one error each.
func importRun(s *mdstore.Store, pb *Playbook, in []ImportedBullet, source string) (acts []Action, refused []error, run *mdstore.Run, err error) {
	acts, refused = PlanImport(pb, in, source)
	for _, a := range acts {
		if err := pb.Do(a); err != nil {
			return nil, nil, nil, err
		}
	}
	run, err = Record(s, pb, acts, fmt.Sprintf("context import %s: %d bullets", source, len(acts)))
	return acts, refused, run, err
}
