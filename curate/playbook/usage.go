package playbook

import (
	"context"
	"fmt"
	"strings"

	"github.com/curator-dev/curator/internal/refuse"
	"github.com/curator-dev/curator/mdstore"
)

// ActUsage records that a bullet was used in a task, no more: usage_count
// + 1, last_used_at = now (`context used`).
const ActUsage = "usage"

// UsageRequest says which bullets were used in a task and, when the
// caller says so, whether they helped (Helpful) or harmed (Harmful).
type UsageRequest struct {
	IDs     []string
	Helpful bool
	Harmful bool
	Saving  Saving
}

// Check refuses no id, an id that cannot name a bullet, and helpful with
// harmful.
func (r UsageRequest) Check() error {
	if len(r.IDs) == 0 {
		return paramErrorf("ids", "name at least one bullet")
	}
	for _, id := range r.IDs {
		if err := checkID("ids", id); err != nil {
			return err
		}
	}
	if r.Helpful && r.Harmful {
		return paramErrorf("helpful", "a use is helpful or harmful, not both")
	}
	return nil
}

// PlanUsage is the action of one used bullet: increment_helpful (helpful +
// 1, confidence + 0.05, usage + 1, as a reflection's helpful_bullets do),
// increment_harmful (harmful + 1, usage + 1) or usage (usage + 1); each
// sets last_used_at.
func PlanUsage(id string, helpful, harmful bool) Action {
	a := Action{Type: ActUsage, TargetBulletID: id, Reasoning: "used in a task"}
	switch {
	case helpful:
		a.Type, a.Reasoning = ActIncrementHelpful, "used in a task: helpful"
	case harmful:
		a.Type, a.Reasoning = ActIncrementHarmful, "used in a task: harmful"
	}
	return a
}

// Usage records the use of the bullets in one commit. An unknown or
// archived bullet refuses the whole request and nothing is written; a
// bullet named twice is counted once.
func Usage(_ context.Context, s *mdstore.Store, req UsageRequest) (*ActionsReport, error) {
	if err := req.Check(); err != nil {
		return nil, err
	}
	if err := allowed(s, req.Saving, "recording the use of bullets"); err != nil {
		return nil, err
	}
	tx, pb, invalid, err := openLocked(s, req.Saving)
	if err != nil {
		return nil, err
	}
	defer tx.Close()
	var acts []Action
	seen := map[string]bool{}
	for _, id := range req.IDs {
		if seen[id] {
			continue
		}
		seen[id] = true
		if _, err := pb.activeBullet(id, "bullet"); err != nil {
			return nil, refuse.Request(err)
		}
		a := PlanUsage(id, req.Helpful, req.Harmful)
		if err := pb.Do(a); err != nil {
			return nil, refuse.Request(err)
		}
		acts = append(acts, a)
	}
	how := "used"
	switch {
	case req.Helpful:
		how = "used, helpful"
	case req.Harmful:
		how = "used, harmful"
	}
	run, err := Record(s, pb, acts, fmt.Sprintf("context used %s (%s)", strings.Join(Subjects(acts), ", "), how))
	if err != nil {
		return nil, err
	}
	commit, err := tx.Save(run, req.Saving.Save...)
	if err != nil {
		return nil, err
	}
	rep := NewActionsReport(acts, commit, invalid)
	rep.Bullets = pb.Totals(acts)
	return &rep, nil
}

// Subjects are the bullets the actions are about, in order.
func Subjects(acts []Action) []string {
	out := make([]string, len(acts))
	for i, a := range acts {
		out[i] = a.Subject()
	}
	return out
}
