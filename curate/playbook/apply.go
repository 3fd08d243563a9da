package playbook

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/curator-dev/curator/mdstore"
)

// CurationDocument is the curator output format an LLM answers the prompt
// with, and that `curator context apply` executes.
type CurationDocument struct {
	CurationActions    []CurationDocAction `json:"curation_actions"`
	ValidationRequired []string            `json:"validation_required"`
	Summary            json.RawMessage     `json:"summary"`
}

// CurationDocAction is one action of a CurationDocument.
type CurationDocAction struct {
	Action          string   `json:"action"`
	BulletID        string   `json:"bullet_id"`
	TargetBulletID  string   `json:"target_bullet_id"`
	SimilarityScore float64  `json:"similarity_score"`
	Reasoning       string   `json:"reasoning"`
	MergedContent   string   `json:"merged_content"`
	Content         string   `json:"content"`
	Category        string   `json:"category"`
	Confidence      *float64 `json:"confidence"`
	Priority        int      `json:"priority"`
	Tags            []string `json:"tags"`
	ReflectionID    string   `json:"reflection_id"`
}

// ErrInvalidDocument means a curation document was refused; nothing was written.
var ErrInvalidDocument = errors.New("invalid curation document")

// PlanDocument validates a curation document completely against the
// playbook and turns it into actions, carried out on pb. Any problem (bad
// JSON, an unknown action, an unknown or archived bullet, a merge without
// merged_content, a secret) refuses the whole document: the error lists
// every problem, and the caller writes nothing.
func PlanDocument(pb *Playbook, data []byte) ([]Action, error) {
	var doc CurationDocument
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrInvalidDocument, err)
	}
	if doc.CurationActions == nil {
		return nil, fmt.Errorf("%w: no \"curation_actions\" list", ErrInvalidDocument)
	}
	var problems []string
	var acts []Action
	for i, d := range doc.CurationActions {
		a, err := docAction(pb, d)
		if err == nil {
			err = pb.Do(a)
		}
		if err != nil {
			problems = append(problems, fmt.Sprintf("curation_actions[%d] (%s): %v", i, d.Action, err))
			continue
		}
		acts = append(acts, a)
	}
	for i, id := range doc.ValidationRequired {
		a := Action{Type: ActProposal, TargetBulletID: id, Validation: "required", Reasoning: "listed in validation_required"}
		if err := pb.Do(a); err != nil {
			problems = append(problems, fmt.Sprintf("validation_required[%d]: %v", i, err))
			continue
		}
		acts = append(acts, a)
	}
	if len(problems) > 0 {
		return nil, fmt.Errorf("%w; nothing was written:\n  %s", ErrInvalidDocument, strings.Join(problems, "\n  "))
	}
	return acts, nil
}

func docAction(pb *Playbook, d CurationDocAction) (Action, error) {
	content := d.MergedContent
	if content == "" {
		content = d.Content
	}
	if err := checkDocAction(pb.Secrets, d); err != nil {
		return Action{}, err
	}
	a := Action{Similarity: d.SimilarityScore, Reasoning: d.Reasoning, ReflectionID: d.ReflectionID, Tags: d.Tags}
	subject := d.BulletID
	if subject == "" {
		subject = d.TargetBulletID
	}
	switch d.Action {
	case ActNewBullet, "add", "add_bullet":
		if strings.TrimSpace(content) == "" {
			return a, errors.New("content (or merged_content) is missing")
		}
		if d.Category == "" {
			return a, errors.New("category is missing")
		}
		a.Type, a.Category, a.Content = ActNewBullet, NormCategory(d.Category), content
		a.BulletID = pb.IDs.Next(a.Category)
		a.Confidence, a.Priority, a.Validation = DefaultLessonConf(d.Confidence), d.Priority, "none"
		if a.Confidence < LowConfidence-Tolerance {
			a.Validation = "required"
		}
	case ActIncrementHelpful, ActIncrementHarmful, ActArchive, ActPrune, ActProposal:
		if subject == "" {
			return a, errors.New("bullet_id is missing")
		}
		a.Type, a.TargetBulletID = d.Action, subject
		if d.Action == ActProposal {
			a.Content, a.Validation = content, "required"
		}
	case ActMergeSimilar:
		if d.TargetBulletID == "" {
			return a, errors.New("a merge needs target_bullet_id")
		}
		if strings.TrimSpace(d.MergedContent) == "" {
			return a, errors.New("merged_content is missing")
		}
		if pb.Bullet(d.TargetBulletID) == nil {
			return a, fmt.Errorf("target %q: no such bullet", d.TargetBulletID)
		}
		a.Type, a.TargetBulletID, a.Content = ActMergeSimilar, d.TargetBulletID, d.MergedContent
		// Without bullet_id the reflection's lesson itself is merged into the target.
		a.MergedFrom = []string{d.TargetBulletID}
		if d.BulletID != "" {
			a.MergedFrom = union(a.MergedFrom, []string{d.BulletID})
		}
		a.BulletID = pb.IDs.NextVersion(d.TargetBulletID)
		if d.Confidence != nil {
			a.Confidence = *d.Confidence
		}
	case ActSkip:
		a.Type, a.TargetBulletID = ActSkip, subject
	default:
		return a, fmt.Errorf("unknown action %q (want new_bullet, increment_helpful, increment_harmful, merge_similar, proposal, archive, prune or skip)", d.Action)
	}
	return a, nil
}

// DefaultLessonConf is a confidence or, when nil, the lesson default.
func DefaultLessonConf(c *float64) float64 {
	if c == nil {
		return mdstore.DefaultLessonConfidence
	}
	return clampUnit(*c)
}
