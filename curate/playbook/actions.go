package playbook

import (
	"time"

	"github.com/curator-dev/curator/mdstore"
)

// Playbook action types: the merge_type of a merge-log line (SPEC §2.4),
// plus "rebalance" (maintenance's priority change).
const (
	ActNewBullet        = "new_bullet"
	ActIncrementHelpful = "increment_helpful"
	ActIncrementHarmful = "increment_harmful"
	ActMergeSimilar     = "merge_similar"
	ActArchive          = "archive"
	ActPrune            = "prune"
	ActSkip             = "skip"
	ActProposal         = "proposal"
	ActRebalance        = "rebalance"
	ActReview           = "review"
)

// ActionTypes lists every action type, in report order.
var ActionTypes = []string{
	ActNewBullet, ActIncrementHelpful, ActIncrementHarmful, ActMergeSimilar,
	ActProposal, ActArchive, ActPrune, ActRebalance, ActReview, ActSkip,
}

// Action is one decision of a playbook run. The same value is what
// the plan returns, what apply executes and what the merge log records.
//
//   - new_bullet: BulletID (new), Category, Content, Confidence, Priority, Tags, Validation.
//   - increment_helpful / increment_harmful: TargetBulletID.
//   - merge_similar: BulletID (the new version <ID>-vN), TargetBulletID (its
//     parent), MergedFrom (the bullets combined, archived by the merge),
//     Content (keeps every distinct sentence), Validation.
//   - proposal: TargetBulletID and MergedFrom, Content; marks the target
//     validation: required and changes nothing else.
//   - archive / prune: TargetBulletID.
//   - rebalance: TargetBulletID, Priority.
//   - review: TargetBulletID, Validation (approved or rejected).
//   - usage: TargetBulletID (used in a task: usage_count + 1, last_used_at).
//   - skip: nothing changes.
type Action struct {
	Type           string   `json:"merge_type"`
	BulletID       string   `json:"bullet_id,omitempty"`
	TargetBulletID string   `json:"target_bullet_id,omitempty"`
	MergedFrom     []string `json:"merged_from_bullet_ids,omitempty"`
	Similarity     float64  `json:"similarity_score"`
	Content        string   `json:"new_content,omitempty"`
	Reasoning      string   `json:"curator_reasoning"`
	ReflectionID   string   `json:"reflection_id,omitempty"`
	Lesson         int      `json:"lesson,omitempty"` // 1-based index in the reflection
	Category       string   `json:"category,omitempty"`
	Confidence     float64  `json:"confidence,omitempty"`
	Priority       int      `json:"priority,omitempty"`
	Tags           []string `json:"tags,omitempty"`
	Validation     string   `json:"validation,omitempty"`
	// Imports only: the bullet's id and section in the source playbook and
	// its counters there.
	OriginalID string `json:"original_id,omitempty"`
	Section    string `json:"section,omitempty"`
	Helpful    int    `json:"helpful,omitempty"`
	Harmful    int    `json:"harmful,omitempty"`
}

// Subject is the bullet an action is about: the new bullet, else the target.
func (a Action) Subject() string {
	if a.BulletID != "" {
		return a.BulletID
	}
	return a.TargetBulletID
}

// LogLine renders an action as a merge-log line. An increment's line
// names the bullet it changed as bullet_id too (beside target_bullet_id).
func (a Action) LogLine(runID string, at time.Time) mdstore.MergeLogLine {
	bulletID := a.BulletID
	if bulletID == "" && (a.Type == ActIncrementHelpful || a.Type == ActIncrementHarmful) {
		bulletID = a.TargetBulletID
	}
	return mdstore.MergeLogLine{
		RunID: runID, At: at.UTC(), MergeType: a.Type, BulletID: bulletID,
		TargetBulletID: a.TargetBulletID, MergedFromBulletIDs: a.MergedFrom,
		SimilarityScore: round6(a.Similarity), NewContent: a.Content, CuratorReasoning: a.Reasoning,
		ReflectionID: a.ReflectionID, Lesson: a.Lesson, Category: a.Category,
		Confidence: a.Confidence, Priority: a.Priority,
	}
}

func round6(x float64) float64 {
	if x < 0 {
		return -round6(-x)
	}
	return float64(int64(x*1e6+0.5)) / 1e6
}
