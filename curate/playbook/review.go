package playbook

import (
	"context"
	"errors"
	"fmt"

	"github.com/curator-dev/curator/internal/refuse"
	"github.com/curator-dev/curator/mdstore"
)

// ReviewRequest is a decision on a bullet awaiting validation (`context
// review approve|reject ID`), or on every bullet of the review queue
// (All: `context review approve|reject --all`).
type ReviewRequest struct {
	ID      string
	All     bool
	Approve bool
	Saving  Saving
}

// Check refuses a decision on no bullet or on both one bullet and all,
// and an id that cannot name a bullet.
func (r ReviewRequest) Check() error {
	if (r.ID == "") == !r.All {
		return refuse.Requestf("give an id or all (not both)")
	}
	return checkID("id", r.ID)
}

// ReviewQueueRequest is a call on the review queue as one request (the
// MCP tool review_queue): no Decision lists the queue and changes nothing;
// Decision approve or reject decides on the bullet ID, or on All of the
// queue (a ReviewRequest).
type ReviewQueueRequest struct {
	Decision string
	ID       string
	All      bool
}

// Check refuses an id or all without a decision, and a decision other
// than approve or reject.
func (r ReviewQueueRequest) Check() error {
	switch {
	case r.Decision == "" && (r.ID != "" || r.All):
		return refuse.Requestf("id and all need a decision (approve or reject)")
	case r.Decision != "" && r.Decision != "approve" && r.Decision != "reject":
		return refuse.Phrasef("decision", "%q: want approve or reject", r.Decision)
	}
	return nil
}

// Decides says whether the request decides (else it lists the queue),
// and the decision it asks for, saved with sv.
func (r ReviewQueueRequest) Decides(sv Saving) (ReviewRequest, bool) {
	return ReviewRequest{ID: r.ID, All: r.All, Approve: r.Decision == "approve", Saving: sv}, r.Decision != ""
}

// ErrNothingToReview means --all found the review queue empty.
var ErrNothingToReview = errors.New("no bullet waits for review")

// Review records the decision on the bullet (or on every bullet of the
// review queue), one commit: approve applies its pending merge proposal. An unknown bullet is a refused request; a
// review the bullet's state does not allow is refuse.Blocked.
func Review(_ context.Context, s *mdstore.Store, req ReviewRequest) (*ActionsReport, error) {
	if err := req.Check(); err != nil {
		return nil, err
	}
	if err := allowed(s, req.Saving, "reviewing bullets"); err != nil {
		return nil, err
	}
	tx, pb, invalid, err := openLocked(s, req.Saving)
	if err != nil {
		return nil, err
	}
	defer tx.Close()
	ids := []string{req.ID}
	if req.All {
		ids = nil
		for _, it := range pb.ReviewQueue() {
			ids = append(ids, it.ID)
		}
		if err := pb.Err(); err != nil {
			return nil, err
		}
		if len(ids) == 0 {
			return nil, refuse.Blocked(fmt.Errorf("%w (see `curator context review`)", ErrNothingToReview))
		}
	}
	acts, run, err := reviewRun(s, pb, ids, req.Approve)
	var refused *RefusedError
	switch {
	case errors.Is(err, mdstore.ErrNotFound):
		return nil, refuse.Request(err)
	case errors.As(err, &refused):
		return nil, refuse.Blocked(err)
	case err != nil:
		return nil, err
	}
	commit, err := tx.Save(run, req.Saving.Save...)
	if err != nil {
		return nil, err
	}
	rep := NewActionsReport(acts, commit, invalid)
	return &rep, nil
}

// PlanReview decides what `context review approve|reject ID` does.
//
// approve: when the merge log holds a proposal for the bullet whose merged
// bullets are all still active, the latest such proposal is applied as a
// merge_similar (a new version, validation: approved); otherwise the
// bullet's validation becomes approved. reject: validation becomes
// rejected (the bullet stays, out of inject until approved). An archived
// bullet cannot be reviewed.
func PlanReview(pb *Playbook, logs []mdstore.MergeLogLine, id string, approve bool) ([]Action, error) {
	b := pb.Bullet(id)
	if b == nil {
		return nil, fmt.Errorf("%w: bullet %s", mdstore.ErrNotFound, id)
	}
	if !b.IsActive {
		return nil, fmt.Errorf("bullet %s is archived (since %s): only an active bullet can be reviewed", id, b.ArchivedAt.UTC().Format("2006-01-02T15:04:05Z"))
	}
	if !approve {
		a := Action{Type: ActReview, TargetBulletID: id, Validation: "rejected", Reasoning: "rejected by review"}
		return []Action{a}, pb.Do(a)
	}
	{
		for i := len(logs) - 1; i >= 0; i-- {
			l := logs[i]
			if l.MergeType != ActProposal || l.TargetBulletID != id || l.NewContent == "" {
				continue
			}
			from := l.MergedFromBulletIDs
			if len(from) == 0 {
				from = []string{id}
			}
			ok := true
			for _, f := range from {
				if x := pb.Bullet(f); x == nil || !x.IsActive {
					ok = false
				}
			}
			if !ok {
				continue
			}
			a := Action{Type: ActMergeSimilar, BulletID: pb.IDs.NextVersion(id), TargetBulletID: id, MergedFrom: from,
				Similarity: l.SimilarityScore, Content: l.NewContent, Confidence: maxf(b.Confidence, l.Confidence), Validation: "approved",
				ReflectionID: l.ReflectionID, Lesson: l.Lesson,
				Reasoning: fmt.Sprintf("proposal of run %s approved by review", l.RunID)}
			return []Action{a}, pb.Do(a)
		}
	}
	a := Action{Type: ActReview, TargetBulletID: id, Validation: "approved", Reasoning: "approved by review"}
	return []Action{a}, pb.Do(a)
}
