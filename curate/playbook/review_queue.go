package playbook

import (
	"context"
	"fmt"
	"sort"

	"github.com/curator-dev/curator/mdstore"
)

// HighPriority is the lowest priority of the high tier (8–10).
const HighPriority = 8

// ReviewItem is a bullet that waits for a human, and why.
type ReviewItem struct {
	ID         string   `json:"id"`
	Category   string   `json:"category"`
	Priority   int      `json:"priority"`
	Confidence float64  `json:"confidence"`
	Validation string   `json:"validation"`
	Content    string   `json:"content"`
	Reasons    []string `json:"reasons"`
}

// ReviewQueue is what waits for a human (`context review`): every active
// bullet that
//   - is marked validation: required;
//   - is of high priority (8–10) and was never approved or rejected (a
//     new bullet, or a merge's new version, since the last approval);
//   - has a confidence under 0.6 and was never approved or rejected;
//   - is sensitive (tagged sensitive, or matching
//     context.sensitive_patterns) and was never approved or rejected;
//
// highest priority first, then by id, each with every reason it is listed.
func (p *Playbook) ReviewQueue() []ReviewItem {
	var out []ReviewItem
	p.eachActive(func(a activeFacts) {
		var why []string
		open := a.Validation != "approved" && a.Validation != "rejected"
		if a.Validation == "required" {
			why = append(why, "validation required")
		}
		if open && a.Priority >= HighPriority {
			why = append(why, fmt.Sprintf("high priority %d, not approved yet", a.Priority))
		}
		if open && a.Confidence < LowConfidence-Tolerance {
			why = append(why, fmt.Sprintf("confidence %.2f < %.1f", a.Confidence, LowConfidence))
		}
		var b *mdstore.Bullet
		if open {
			if b = p.Bullet(a.ID); b != nil {
				if s := p.Sensitive.Why(b.Content, b.Tags); s != "" {
					why = append(why, "sensitive: "+s)
				}
			}
		}
		if len(why) == 0 {
			return
		}
		if b == nil {
			b = p.Bullet(a.ID)
		}
		it := ReviewItem{ID: a.ID, Category: a.Category, Priority: a.Priority, Confidence: a.Confidence, Validation: a.Validation, Reasons: why}
		if b != nil {
			it.Content = b.Content
		}
		out = append(out, it)
	})
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Priority != out[j].Priority {
			return out[i].Priority > out[j].Priority
		}
		return out[i].ID < out[j].ID
	})
	return out
}

// ReviewQueueReport is `context review` (list) and the review_queue tool.
type ReviewQueueReport struct {
	Bullets []ReviewItem `json:"bullets"`
	// Skipped are the bullets that could not be read.
	Skipped []*mdstore.InvalidFile `json:"-"`
}

// ListReviewQueue reads the playbook's review queue; it changes nothing.
func ListReviewQueue(_ context.Context, s *mdstore.Store) (*ReviewQueueReport, error) {
	pb, _, invalid, err := Read(s, false, s.Now())
	if err != nil {
		return nil, err
	}
	defer s.WriteCaches()
	q := pb.ReviewQueue()
	if err := pb.Err(); err != nil {
		return nil, err
	}
	if q == nil {
		q = []ReviewItem{}
	}
	return &ReviewQueueReport{Bullets: q, Skipped: invalid}, nil
}
