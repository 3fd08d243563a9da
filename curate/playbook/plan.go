package playbook

import (
	"fmt"
	"slices"
	"strings"

	"github.com/curator-dev/curator/config"
	"github.com/curator-dev/curator/curate/similar"
	"github.com/curator-dev/curator/internal/secrets"
	"github.com/curator-dev/curator/mdstore"
)

// Thresholds of the playbook rules (SPEC §3.3). Every comparison allows
// Tolerance, so a similarity of exactly a threshold is on the side the SPEC
// writes with "≤"/"≥":
//
//	similarity >  threshold (0.85)      → increment_helpful (exactly 0.85 merges)
//	0.6 ≤ similarity ≤ threshold        → merge_similar / proposal (exactly 0.6 merges)
//	similarity <  0.6                   → new_bullet
//	maintenance dedup: similarity > 0.90 (exactly 0.90 is not a duplicate;
//	it is an overlapping pair, see maintenance.go)
const (
	Tolerance          = 1e-9
	DefaultThreshold   = config.DefaultSimilarityThreshold
	MergeFloor         = similar.MergeFloor // 0.6
	DedupThreshold     = 0.90
	AutoMergeMin       = 0.8
	LowConfidence      = 0.6
	DefaultMinConf     = config.DefaultMinConfidence
	HarmfulArchive     = 5
	HelpfulKeep        = 2
	PruneDays          = 90
	PruneHelpfulBelow  = 3
	defaultLessonCateg = "other"
)

// Settings are the flags of `curator context curate`.
type Settings struct {
	Threshold         float64 // --similarity-threshold (default 0.85)
	MinConfidence     float64 // --min-confidence (default 0.5)
	AutoMerge         bool
	RequireValidation bool
	Category          string // only lessons of this category
	ReflectionID      string // only this reflection
	Maintenance       bool
}

// DefaultSettings are the SPEC's defaults.
func DefaultSettings() Settings {
	return Settings{Threshold: DefaultThreshold, MinConfidence: DefaultMinConf}
}

// HeldReflection is a reflection that was not curated because it looks
// like it holds a secret; it stays pending and nothing of it is written.
type HeldReflection struct {
	// Why says what holds it when it is not a secret ("" for a secret).
	Why          string `json:"why,omitempty"`
	ReflectionID string `json:"reflection_id"`
	Path         string `json:"path"`
	Lesson       int    `json:"lesson,omitempty"` // 1-based; 0 for the reflection's own fields
	Field        string `json:"field"`
	Line         int    `json:"line,omitempty"` // line of the field (of the file for field "file")
	Kind         string `json:"kind"`           // the rule
}

func (h HeldReflection) Error() string {
	return fmt.Sprintf("%s: %s; the reflection stays pending and nothing of it is written", h.Path, h.Problem())
}

// Problem says where the secret is: "lesson 2 looks like it holds a
// secret (github-token)", "task looks like …".
func (h HeldReflection) Problem() string {
	if h.Why != "" {
		return h.Why
	}
	where := h.Field
	if h.Lesson > 0 {
		where = fmt.Sprintf("lesson %d", h.Lesson)
	}
	return fmt.Sprintf("%s looks like it holds a secret (%s)", where, h.Kind)
}

// ReflectionOutcome is what a run does with one reflection.
type ReflectionOutcome struct {
	Reflection *mdstore.Reflection
	// Done lists the lessons (1-based) curated so far, this run included.
	Done []int
	// Complete: every lesson is curated; the reflection moves to merged/.
	Complete bool
}

// RejectedLesson is a lesson the quality check refused (NotActionable):
// it is skipped, and no bullet is made of it.
type RejectedLesson struct {
	ReflectionID string `json:"reflection_id"`
	Lesson       int    `json:"lesson"` // 1-based
	Content      string `json:"content"`
	Reason       string `json:"reason"`
}

// Plan is the decisions of one curate run.
type Plan struct {
	Actions     []Action
	Reflections []ReflectionOutcome
	Held        []HeldReflection
	Rejected    []RejectedLesson
	Maintenance *MaintenanceReport `json:",omitempty"`
}

// Count returns the number of actions of a type.
func (p *Plan) Count(typ string) int {
	n := 0
	for _, a := range p.Actions {
		if a.Type == typ {
			n++
		}
	}
	return n
}

// NormCategory turns a lesson's category into a folder name: lower case,
// spaces and underscores as "-"; empty → "other".
func NormCategory(c string) string {
	c = strings.ToLower(strings.TrimSpace(c))
	c = strings.NewReplacer(" ", "-", "_", "-").Replace(c)
	if c == "" {
		return defaultLessonCateg
	}
	return c
}

// categoryFilter is a request's category as the folder name it keeps
// (NormCategory: "Test Strategy" keeps test-strategy); "" keeps every
// category.
func categoryFilter(c string) string {
	if c == "" {
		return ""
	}
	return NormCategory(c)
}

// PlanCuration decides what the pending reflections change in the
// playbook. It runs the decisions on pb in memory (pb.Matcher must be set),
// so each lesson sees what the lessons before it did, and returns them; the
// caller turns pb into files with pb.Changes. No I/O.
func PlanCuration(pb *Playbook, refls []*mdstore.Reflection, set Settings) (*Plan, error) {
	if set.Threshold == 0 {
		set.Threshold = DefaultThreshold
	}
	plan := &Plan{}
	do := func(a Action) error {
		if err := pb.Do(a); err != nil {
			return fmt.Errorf("reflection %s lesson %d: %w", a.ReflectionID, a.Lesson, err)
		}
		plan.Actions = append(plan.Actions, a)
		return nil
	}
	held := make([]*HeldReflection, len(refls))
	var cats []string // the categories whose bullets the lessons are matched with
	for i, r := range refls {
		if set.ReflectionID != "" && r.ID != set.ReflectionID {
			continue
		}
		if held[i] = heldFor(pb.Secrets, r); held[i] != nil {
			continue
		}
		if held[i] = namesSharedID(pb, r); held[i] != nil {
			continue
		}
		if held[i] = repeatsSharedID(pb, r, set); held[i] != nil {
			continue
		}
		for k, l := range r.Lessons {
			cat := NormCategory(l.Category)
			if !slices.Contains(r.CuratedLessons, k+1) && (set.Category == "" || cat == set.Category) && matched(l, set) {
				cats = append(cats, cat)
			}
		}
	}
	if pb.Matcher != nil {
		pb.Matcher.prepare(cats) // their candidate indexes, on every core
	}
	for ri, r := range refls {
		if set.ReflectionID != "" && r.ID != set.ReflectionID {
			continue
		}
		if h := held[ri]; h != nil {
			plan.Held = append(plan.Held, *h)
			continue
		}
		out := ReflectionOutcome{Reflection: r, Done: append([]int(nil), r.CuratedLessons...)}
		done := map[int]bool{}
		for _, n := range r.CuratedLessons {
			done[n] = true
		}
		for i, l := range r.Lessons {
			n := i + 1
			if done[n] {
				continue
			}
			cat := NormCategory(l.Category)
			if set.Category != "" && cat != set.Category {
				continue
			}
			var a Action
			if why := NotActionable(l.Content); why == "" || l.Conf() < set.MinConfidence-Tolerance {
				a = planLesson(pb, r.ID, n, l, cat, set)
			} else {
				a = Action{Type: ActSkip, ReflectionID: r.ID, Lesson: n, Category: cat, Confidence: l.Conf(),
					Content: l.Content, Reasoning: "not actionable: " + why}
				plan.Rejected = append(plan.Rejected, RejectedLesson{ReflectionID: r.ID, Lesson: n, Content: strings.TrimSpace(l.Content), Reason: why})
			}
			if err := do(a); err != nil {
				return nil, err
			}
			done[n] = true
			out.Done = append(out.Done, n)
		}
		out.Complete = len(done) >= len(r.Lessons)
		if out.Complete {
			for _, ids := range []struct {
				typ string
				ids []string
			}{{ActIncrementHelpful, r.HelpfulBullets}, {ActIncrementHarmful, r.HarmfulBullets}} {
				for _, id := range ids.ids {
					a := Action{Type: ids.typ, TargetBulletID: id, ReflectionID: r.ID,
						Reasoning: "the reflecting agent marked this bullet " + strings.TrimPrefix(ids.typ, "increment_")}
					if b := pb.Bullet(id); b == nil || !b.IsActive {
						a = Action{Type: ActSkip, TargetBulletID: id, ReflectionID: r.ID,
							Reasoning: "the reflection names bullet " + id + ", which is not an active bullet"}
					}
					if err := do(a); err != nil {
						return nil, err
					}
				}
			}
		}
		if len(out.Done) > len(r.CuratedLessons) || out.Complete {
			plan.Reflections = append(plan.Reflections, out)
		}
	}
	var harmful []activeFacts
	pb.eachActive(func(b activeFacts) {
		if b.Harmful >= HarmfulArchive && b.Helpful < HelpfulKeep {
			harmful = append(harmful, b)
		}
	})
	for _, b := range harmful {
		if err := do(Action{Type: ActArchive, TargetBulletID: b.ID,
			Reasoning: fmt.Sprintf("harmful_count %d ≥ %d and helpful_count %d < %d", b.Harmful, HarmfulArchive, b.Helpful, HelpfulKeep)}); err != nil {
			return nil, err
		}
	}
	if set.Maintenance {
		m, err := PlanMaintenance(pb, set)
		if err != nil {
			return nil, err
		}
		plan.Maintenance = m
		plan.Actions = append(plan.Actions, m.Actions...)
	}
	return plan, nil
}

// heldFor returns the first secret-looking field of a reflection (any
// field: a merged reflection is committed whole).
// namesSharedID holds a reflection that marks helpful or harmful a bullet
// id more than one file has: which bullet it meant is not for a run to
// guess, and its feedback is kept until one file is renamed.
func namesSharedID(pb *Playbook, r *mdstore.Reflection) *HeldReflection {
	for _, f := range []struct {
		field string
		ids   []string
	}{{"helpful_bullets", r.HelpfulBullets}, {"harmful_bullets", r.HarmfulBullets}} {
		for _, id := range f.ids {
			if slices.Contains(pb.sharedIDs, id) {
				return &HeldReflection{ReflectionID: r.ID, Path: r.Path, Field: f.field, Kind: "shared id",
					Why: fmt.Sprintf("%s names %s, an id that more than one bullet file has (rename one of them, then curate again)", f.field, id)}
			}
		}
	}
	return nil
}

// repeatsSharedID holds a reflection one of whose lessons (of those the
// run would match) repeats an active bullet whose id more than one file
// has: a similarity of at least MergeFloor to one of those files, among
// those the lesson would be matched with were they in the playbook (the
// lesson's category when it holds bullets or one of them, else every
// category). Matched without them, the lesson would become a new bullet
// beside them; it waits until one file is renamed.
func repeatsSharedID(pb *Playbook, r *mdstore.Reflection, set Settings) *HeldReflection {
	if len(pb.sharing) == 0 || pb.Matcher == nil {
		return nil
	}
	for k, l := range r.Lessons {
		cat := NormCategory(l.Category)
		if slices.Contains(r.CuratedLessons, k+1) || set.Category != "" && cat != set.Category || !matched(l, set) {
			continue
		}
		m, ok := pb.sharedMatcher(cat).Best(l.Content, nil)
		if !ok || m.Score < MergeFloor-Tolerance {
			continue
		}
		id := ""
		for _, b := range pb.sharing {
			if b.Path == m.ID {
				id = b.ID
			}
		}
		return &HeldReflection{ReflectionID: r.ID, Path: r.Path, Lesson: k + 1, Field: fmt.Sprintf("lessons[%d].content", k), Kind: "shared id",
			Why: fmt.Sprintf("lesson %d repeats %s (similarity %.2f to %s), an id that more than one bullet file has (rename one of them, then curate again)", k+1, id, m.Score, m.ID)}
	}
	return nil
}

// sharedMatcher matches a lesson of category cat with the active bullets
// of shared ids it would be matched with were they in the playbook: those
// of cat when cat holds bullets or one of them, else all (made once per
// category, by the file's path).
func (pb *Playbook) sharedMatcher(cat string) Matcher {
	var inCat, all []*mdstore.Bullet
	for _, b := range pb.sharing {
		if b.IsActive {
			all = append(all, b)
			if NormCategory(b.Category) == cat {
				inCat = append(inCat, b)
			}
		}
	}
	key, of := "", all
	if pb.Matcher.n[cat] > 0 || len(inCat) > 0 {
		key, of = "category "+cat, inCat
	}
	if pb.sharingMatchers == nil {
		pb.sharingMatchers = map[string]Matcher{}
	}
	m, ok := pb.sharingMatchers[key]
	if !ok {
		m = pb.Matcher.newMatcher()
		for _, b := range of {
			m.Add(b.Path, b.Content)
		}
		pb.sharingMatchers[key] = m
	}
	return m
}

func heldFor(p *secrets.Policy, r *mdstore.Reflection) *HeldReflection {
	if e := r.CheckSecrets(p); e != nil {
		return &HeldReflection{ReflectionID: r.ID, Path: r.Path, Lesson: mdstore.LessonOf(e.Field), Field: e.Field, Line: e.Line, Kind: e.Rule}
	}
	return nil
}

// matched reports whether planning a lesson matches it with the bullets
// (planLesson asks the matcher): it is actionable and its confidence is at
// least --min-confidence.
func matched(l mdstore.Lesson, set Settings) bool {
	return NotActionable(l.Content) == "" && l.Conf() >= set.MinConfidence-Tolerance
}

// planLesson applies the rules to one lesson.
func planLesson(pb *Playbook, rid string, n int, l mdstore.Lesson, cat string, set Settings) Action {
	base := Action{ReflectionID: rid, Lesson: n, Category: cat, Confidence: l.Conf()}
	conf := l.Conf()
	if conf < set.MinConfidence-Tolerance {
		base.Type = ActSkip
		base.Content = l.Content
		base.Reasoning = fmt.Sprintf("confidence %.2f is under --min-confidence %.2f", conf, set.MinConfidence)
		return base
	}
	scope := "category " + cat
	if pb.ActiveIn(cat) == 0 {
		scope = "all categories (none in " + cat + ")"
	}
	m, ok := pb.Matcher.Best(l.Content, cat)
	if !ok {
		m = similar.Match{}
	}
	base.Similarity = m.Score
	switch {
	case ok && m.Score > set.Threshold+Tolerance:
		base.Type = ActIncrementHelpful
		base.TargetBulletID = m.ID
		base.Reasoning = fmt.Sprintf("similarity %.4f to %s > %.2f in %s: the lesson confirms it", m.Score, m.ID, set.Threshold, scope)
	case ok && m.Score >= MergeFloor-Tolerance:
		t := pb.Bullet(m.ID)
		base.TargetBulletID = m.ID
		base.MergedFrom = []string{m.ID}
		base.Content = MergeContent(t.Content, l.Content)
		base.Confidence = maxf(conf, t.Confidence)
		base.Tags = l.Tags
		apply := set.AutoMerge && m.Score >= AutoMergeMin-Tolerance
		if !apply {
			base.Type = ActProposal
			base.Validation = "required"
			why := "without --auto-merge"
			if set.AutoMerge {
				why = fmt.Sprintf("similarity under %.1f", AutoMergeMin)
			}
			base.Reasoning = fmt.Sprintf("similarity %.4f to %s is in [%.2f, %.2f]: merge proposed (%s), validation required", m.Score, m.ID, MergeFloor, set.Threshold, why)
			pb.Sensitive.flagSensitive(&base)
			return base
		}
		base.Type = ActMergeSimilar
		base.BulletID = pb.IDs.NextVersion(m.ID)
		if set.RequireValidation {
			base.Validation = "required"
		}
		base.Reasoning = fmt.Sprintf("similarity %.4f to %s is in [%.2f, %.2f]: merged into %s", m.Score, m.ID, MergeFloor, set.Threshold, base.BulletID)
		pb.Sensitive.flagSensitive(&base)
	default:
		base.Type = ActNewBullet
		base.BulletID = pb.IDs.Next(cat)
		base.Content = strings.TrimSpace(l.Content)
		base.Priority = l.Prio()
		base.Tags = l.Tags
		base.Validation = "none"
		if conf < LowConfidence-Tolerance {
			base.Validation = "required"
		}
		if ok {
			base.Reasoning = fmt.Sprintf("best similarity %.4f (%s) < %.2f: a new bullet", m.Score, m.ID, MergeFloor)
		} else {
			base.Reasoning = "no similar bullet: a new bullet"
		}
		pb.Sensitive.flagSensitive(&base)
	}
	return base
}

func maxf(a, b float64) float64 {
	if a > b {
		return a
	}
	return b
}
