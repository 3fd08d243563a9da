package playbook

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"

	"strings"

	"github.com/curator-dev/curator/curate/playbook/bulletid"
	"github.com/curator-dev/curator/internal/refuse"
	"github.com/curator-dev/curator/mdstore"
)

// CurationDocument is the curator output format an LLM answers the prompt
// with, and that `curator context apply` executes.
type CurationDocument struct {
	CurationActions    []CurationDocAction `json:"curation_actions"`
	ValidationRequired []string            `json:"validation_required"`
	Summary            json.RawMessage     `json:"summary"`
	// ReflectionID is the reflection the whole answer curates (an action's
	// own reflection_id wins).
	ReflectionID string `json:"reflection_id"`
}

// CurationDocAction is one action of a CurationDocument.
type CurationDocAction struct {
	Action          string         `json:"action"`
	BulletID        string         `json:"bullet_id"`
	TargetBulletID  string         `json:"target_bullet_id"`
	SimilarityScore float64        `json:"similarity_score"`
	Reasoning       string         `json:"reasoning"`
	MergedContent   string         `json:"merged_content"`
	Content         string         `json:"content"`
	Category        string         `json:"category"`
	Confidence      *float64       `json:"confidence"`
	Priority        AnswerPriority `json:"priority"`
	Tags            []string       `json:"tags"`
	ReflectionID    string         `json:"reflection_id"`
	// ValidationRequired marks the bullet the action makes for human review.
	ValidationRequired bool `json:"validation_required"`
}

// AnswerPriority is a bullet's priority in an answer: a number 1–10 or one of
// the tiers "high" (9), "medium" (5) and "low" (2) (mdstore.PriorityTiers);
// 0 when absent.
type AnswerPriority int

// UnmarshalJSON reads a number or a tier name.
func (p *AnswerPriority) UnmarshalJSON(b []byte) error {
	var n int
	if err := json.Unmarshal(b, &n); err == nil {
		*p = AnswerPriority(n)
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("priority %s: want %s", b, mdstore.PriorityWant)
	}
	n, err := mdstore.ParsePriority(s)
	if err != nil {
		return err
	}
	*p = AnswerPriority(n)
	return nil
}

// ErrInvalidDocument means a curation document was refused; nothing was written.
var ErrInvalidDocument = errors.New("invalid curation document")

// Answer is what a curation document is applied with: the reflection it
// answers (--reflection-id; "" takes the document's own reflection_id) and
// the pending reflections by id, whose lessons give a new bullet without
// a category its category, confidence and priority.
type Answer struct {
	ReflectionID string
	Reflections  map[string]*mdstore.Reflection
}

// PlanDocument validates a curation document completely against the
// playbook and turns it into actions, carried out on pb. Any problem (bad
// JSON, an unknown action, an unknown or archived bullet, a merge without
// merged_content, a secret) refuses the whole document: the error lists
// every problem, and the caller writes nothing.
func PlanDocument(pb *Playbook, data []byte) ([]Action, error) {
	return PlanAnswer(pb, data, Answer{})
}

// PlanAnswer is PlanDocument for the answer to a reflection: the actions
// without a reflection_id are the answer's, a new bullet without a category
// takes the one of the reflection's lesson it comes from (else the one of
// its bullet_id's prefix), and a bullet_id a new bullet gives is kept when
// no bullet ever had it (an id in use refuses the document).
func PlanAnswer(pb *Playbook, data []byte, ans Answer) ([]Action, error) {
	var doc CurationDocument
	if err := decodeAnswer(data, &doc); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrInvalidDocument, err)
	}
	if doc.CurationActions == nil {
		return nil, fmt.Errorf("%w: no \"curation_actions\" list", ErrInvalidDocument)
	}
	rid := ans.ReflectionID
	if rid == "" {
		rid = doc.ReflectionID
	}
	for i := range doc.CurationActions {
		doc.CurationActions[i].Action = firstChoice(doc.CurationActions[i].Action)
	}
	var problems []string
	// The ids the answer's new bullets give are reserved first, so that an
	// id allocated for another new bullet never takes one of them.
	given := map[string]int{}
	for i, d := range doc.CurationActions {
		if !isNewBullet(d.Action) || d.BulletID == "" {
			continue
		}
		if err := checkGivenID(pb, d.BulletID); err != nil {
			problems = append(problems, fmt.Sprintf("curation_actions[%d] (%s): %v", i, d.Action, err))
			continue
		}
		if j, dup := given[d.BulletID]; dup {
			problems = append(problems, fmt.Sprintf("curation_actions[%d] (%s): bullet_id %s is already given by curation_actions[%d]", i, d.Action, d.BulletID, j))
			continue
		}
		given[d.BulletID] = i
	}
	for id := range given {
		pb.IDs.Observe(id)
	}
	var acts []Action
	for i, d := range doc.CurationActions {
		if d.ReflectionID == "" {
			d.ReflectionID = rid
		}
		a, err := docAction(pb, d, ans.Reflections[d.ReflectionID])
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
		a := Action{Type: ActProposal, TargetBulletID: id, Validation: "required", Reasoning: "listed in validation_required", ReflectionID: rid}
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

func isNewBullet(action string) bool {
	return action == ActNewBullet || action == "add" || action == "add_bullet"
}

// checkGivenID accepts the id a new bullet gives when it has the form
// PREFIX-NNN and no bullet ever had it.
func checkGivenID(pb *Playbook, id string) error {
	if _, _, v, ok := bulletid.Parse(id); !ok || v != 1 || strings.Contains(id, "-v") {
		return fmt.Errorf("bullet_id %q is not a new bullet's id (PREFIX-NNN)", id)
	}
	if pb.Bullet(id) != nil || pb.IDs.Used(id) {
		return fmt.Errorf("bullet_id %s is already in use (leave bullet_id out and curator allocates a free one)", id)
	}
	return nil
}

func docAction(pb *Playbook, d CurationDocAction, refl *mdstore.Reflection) (Action, error) {
	content := d.MergedContent
	if content == "" {
		content = d.Content
	}
	if err := checkDocAction(pb.Secrets, d); err != nil {
		return Action{}, err
	}
	a := Action{Similarity: d.SimilarityScore, Reasoning: d.Reasoning, ReflectionID: d.ReflectionID, Tags: d.Tags, Priority: int(d.Priority)}
	subject := d.BulletID
	if subject == "" {
		subject = d.TargetBulletID
	}
	switch {
	case isNewBullet(d.Action):
		text, lesson, n, err := newBulletText(d, refl)
		if err != nil {
			return a, err
		}
		a.Type, a.Content, a.Lesson = ActNewBullet, text, n
		conf := d.Confidence
		switch {
		case d.Category != "":
			a.Category = NormCategory(d.Category)
		case lesson != nil && lesson.Category != "":
			a.Category = NormCategory(lesson.Category)
		case d.BulletID != "" && pb.IDs.CategoryOf(d.BulletID) != "":
			a.Category = pb.IDs.CategoryOf(d.BulletID)
		case lesson != nil:
			a.Category = NormCategory(lesson.Category) // a lesson without a category is "other"
		default:
			return a, errors.New("category is missing (give category, a reflection whose lesson has one, or a bullet_id with a known prefix)")
		}
		if lesson != nil {
			if conf == nil {
				conf = lesson.Confidence
			}
			if a.Priority == 0 && lesson.Priority != nil {
				a.Priority = int(*lesson.Priority)
			}
			if a.Tags == nil {
				a.Tags = lesson.Tags
			}
		}
		a.BulletID = d.BulletID
		if a.BulletID == "" {
			a.BulletID = pb.IDs.Next(a.Category)
		}
		a.Confidence, a.Validation = DefaultLessonConf(conf), "none"
		if a.Confidence < LowConfidence-Tolerance || d.ValidationRequired {
			a.Validation = "required"
		}
		pb.Sensitive.flagSensitive(&a)
	case d.Action == ActIncrementHelpful || d.Action == ActIncrementHarmful || d.Action == ActArchive || d.Action == ActPrune || d.Action == ActProposal:
		if subject == "" {
			return a, errors.New("bullet_id is missing")
		}
		a.Type, a.TargetBulletID = d.Action, subject
		if d.Action == ActProposal {
			a.Content, a.Validation = content, "required"
		}
	case d.Action == ActMergeSimilar:
		target, other := d.TargetBulletID, d.BulletID
		if target == "" {
			// The procedure's shape: bullet_id is the bullet the lesson merges into.
			target, other = d.BulletID, ""
		}
		if target == "" {
			return a, errors.New("a merge needs target_bullet_id (or bullet_id)")
		}
		if strings.TrimSpace(content) == "" {
			return a, errors.New("merged_content is missing")
		}
		if pb.Bullet(target) == nil {
			return a, fmt.Errorf("target %q: no such bullet", target)
		}
		a.Type, a.TargetBulletID, a.Content = ActMergeSimilar, target, content
		// Without another bullet the reflection's lesson itself is merged into the target.
		a.MergedFrom = []string{target}
		if other != "" {
			a.MergedFrom = union(a.MergedFrom, []string{other})
		}
		a.BulletID = pb.IDs.NextVersion(target)
		if d.Confidence != nil {
			a.Confidence = *d.Confidence
		}
		if d.ValidationRequired {
			a.Validation = "required"
		}
	case d.Action == ActSkip:
		a.Type, a.TargetBulletID = ActSkip, subject
	default:
		return a, fmt.Errorf("unknown action %q (want new_bullet, increment_helpful, increment_harmful, merge_similar, proposal, archive, prune or skip)", d.Action)
	}
	return a, nil
}

// firstChoice reads an action written as the procedure's list of choices
// ("new_bullet|increment_helpful|…") as its first choice.
func firstChoice(action string) string {
	first, _, _ := strings.Cut(action, "|")
	return strings.TrimSpace(first)
}

// newBulletText is the text of a new bullet and the lesson it comes from:
// its content; without content, the text of the lesson it answers (the
// reflection's only lesson, or the one whose words merged_content shares);
// without such a lesson, merged_content.
func newBulletText(d CurationDocAction, refl *mdstore.Reflection) (string, *mdstore.Lesson, int, error) {
	text := d.Content
	if strings.TrimSpace(text) == "" {
		text = d.MergedContent
	}
	lesson, n := lessonOf(refl, text)
	switch {
	case strings.TrimSpace(d.Content) != "":
		return d.Content, lesson, n, nil
	case lesson != nil:
		return lesson.Content, lesson, n, nil
	case strings.TrimSpace(d.MergedContent) != "":
		return d.MergedContent, nil, 0, nil
	case refl != nil && len(refl.Lessons) > 1:
		return "", nil, 0, fmt.Errorf("content is missing and reflection %s has %d lessons (give content, the bullet's text)", refl.ID, len(refl.Lessons))
	}
	return "", nil, 0, errors.New("content is missing (give content, or answer a reflection with --reflection-id whose lesson becomes the bullet)")
}

// lessonOf finds the lesson of a reflection a new bullet's text comes from:
// the only lesson, else the lesson sharing the most words with it (words of
// three letters or more; at least LessonMatch of the two texts' words,
// Jaccard). n is its 1-based index (0 when none).
func lessonOf(r *mdstore.Reflection, content string) (l *mdstore.Lesson, n int) {
	if r == nil || len(r.Lessons) == 0 {
		return nil, 0
	}
	if len(r.Lessons) == 1 {
		return &r.Lessons[0], 1
	}
	words := wordSet(content)
	best, bestScore := -1, 0.0
	for i, les := range r.Lessons {
		lw := wordSet(les.Content)
		common := 0
		for w := range lw {
			if words[w] {
				common++
			}
		}
		if common == 0 {
			continue
		}
		score := float64(common) / float64(len(words)+len(lw)-common)
		if score >= LessonMatch && score > bestScore {
			best, bestScore = i, score
		}
	}
	if best < 0 {
		return nil, 0
	}
	return &r.Lessons[best], best + 1
}

// LessonMatch is the least word overlap (Jaccard) between a new bullet and
// the lesson it is taken to come from.
const LessonMatch = 0.3

func wordSet(s string) map[string]bool {
	out := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127)
	}) {
		if len([]rune(w)) >= 3 {
			out[w] = true
		}
	}
	return out
}

// DefaultLessonConf is a confidence or, when nil, the lesson default.
func DefaultLessonConf(c *float64) float64 {
	if c == nil {
		return mdstore.DefaultLessonConfidence
	}
	return clampUnit(*c)
}

// ApplyRequest is a curation_actions document to carry out (`context
// apply`).
type ApplyRequest struct {
	// Name is what the document is called in messages (its file, "stdin").
	Name string
	Data []byte
	// ReflectionID is the reflection the document answers ("" the
	// document's own reflection_id); it moves to merged/.
	ReflectionID string
	// DryRun reports the actions and changes nothing.
	DryRun bool
	Saving Saving
}

// Apply carries out the document and moves the reflections it answers to
// merged/, one commit unless DryRun. The whole document is checked first:
// a refused one is refuse.Blocked and nothing is written; a reflection id
// that is not pending is a refused request.
func Apply(_ context.Context, s *mdstore.Store, req ApplyRequest) (*ActionsReport, error) {
	if err := checkID("reflection_id", req.ReflectionID); err != nil {
		return nil, err
	}
	if len(bytes.TrimSpace(req.Data)) == 0 {
		return nil, refuse.Requestf("%s is empty: give the curation_actions document", req.Name)
	}
	if !req.DryRun {
		if err := allowed(s, req.Saving, "applying curation actions"); err != nil {
			return nil, err
		}
	}
	tx, pb, invalid, err := openLocked(s, req.Saving)
	if err != nil {
		return nil, err
	}
	defer tx.Close()
	res, err := applyRun(s, pb, req.Data, filepath.Base(req.Name), req.ReflectionID)
	switch {
	case errors.Is(err, ErrInvalidDocument):
		return nil, refuse.Blocked(fmt.Errorf("%s: %w", req.Name, err))
	case errors.Is(err, mdstore.ErrNotFound):
		return nil, refuse.Request(&ParamError{Param: "reflection_id", Err: err})
	case err != nil:
		return nil, err
	}
	commit := ""
	if !req.DryRun {
		if commit, err = tx.Save(res.Run, req.Saving.Save...); err != nil {
			return nil, err
		}
	}
	rep := NewActionsReport(res.Actions, commit, invalid)
	rep.DryRun, rep.ReflectionsMerged, rep.Bullets = req.DryRun, res.Reflections, res.Bullets
	return &rep, nil
}
