package memory

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/curator-dev/curator/config"
	"github.com/curator-dev/curator/frontmatter"
	"github.com/curator-dev/curator/internal/refuse"
	"github.com/curator-dev/curator/internal/secrets"
	"github.com/curator-dev/curator/mdstore"
	"github.com/curator-dev/curator/mdstore/cache"
)

// MinRuleCases is how many distinct lesson cases a rule needs.
const MinRuleCases = 3

// ErrTooFewCases means a scenario has fewer than MinRuleCases distinct cases.
var ErrTooFewCases = errors.New("too few distinct cases to draw a rule")

// ruleNamespace is the namespace of the rules' name-based UUIDs.
var ruleNamespace = uuid.NewSHA1(uuid.NameSpaceURL, []byte("https://curator.dev/memory/rule"))

// RuleID is the id of the rule drawn for a scenario: a UUID, as the
// memory-curate procedure names rule files (confirmed/lesson/<rule_uuid>.md),
// derived from the scenario (version 5), so drawing it again updates the
// same file.
func RuleID(scenario string) string {
	return uuid.NewSHA1(ruleNamespace, []byte(strings.TrimSpace(scenario))).String()
}

// legacyRuleID is the id rules were drawn under before they were named by
// UUIDs ("rule-" and 12 hex digits of the scenario's SHA-256); drawing such
// a rule again moves it to its UUID.
func legacyRuleID(scenario string) string {
	h := sha256.Sum256([]byte(strings.TrimSpace(scenario)))
	return "rule-" + hex.EncodeToString(h[:6])
}

// RuleCases returns the distinct lesson cases of a scenario: the lessons of
// that scenario after dedup (same rule as the memory pass), ordered by
// (ingestion_time, id).
func RuleCases(lessons []*mdstore.Memory, scenario string, prefix int) []*mdstore.Memory {
	if prefix <= 0 {
		prefix = config.DefaultDedupPrefix
	}
	var cases []*mdstore.Memory
	for _, m := range lessons {
		if m.Type == "lesson" && m.Maturity != "rule" && strings.TrimSpace(m.Scenario) == strings.TrimSpace(scenario) {
			cases = append(cases, m)
		}
	}
	dup := Duplicates(cases, prefix)
	out := cases[:0]
	for _, m := range cases {
		if _, isDup := dup[m.ID]; !isDup {
			out = append(out, m)
		}
	}
	mdstore.SortMemories(out)
	return out
}

// DrawRule builds the rule file for a scenario from its cases, into
// confirmed/lesson/. The cases stay where they are.
func DrawRule(scenario string, cases []*mdstore.Memory, author string, now time.Time, cs *mdstore.Changeset) (string, error) {
	if len(cases) < MinRuleCases {
		return "", fmt.Errorf("%w: scenario %q has %d, needs %d", ErrTooFewCases, scenario, len(cases), MinRuleCases)
	}
	ids := make([]string, len(cases))
	var body strings.Builder
	fmt.Fprintf(&body, "Rule drawn from %d cases of the scenario %q:\n\n", len(cases), scenario)
	tags := map[string]bool{}
	for i, m := range cases {
		ids[i] = m.ID
		fmt.Fprintf(&body, "- %s (%s)\n", m.Brief, m.ID)
		for _, t := range m.Tags {
			tags[t] = true
		}
	}
	tagList := make([]string, 0, len(tags))
	for t := range tags {
		tagList = append(tagList, t)
	}
	sort.Strings(tagList)
	id := RuleID(scenario)
	doc, err := frontmatter.New([]byte(body.String()),
		frontmatter.KV{Key: "id", Value: id},
		frontmatter.KV{Key: "type", Value: "lesson"},
		frontmatter.KV{Key: "status", Value: "confirmed"},
		frontmatter.KV{Key: "maturity", Value: "rule"},
		frontmatter.KV{Key: "brief", Value: "Rule: " + scenario},
		frontmatter.KV{Key: "author", Value: author},
		frontmatter.KV{Key: "tags", Value: tagList},
		frontmatter.KV{Key: "content_confidence", Value: 4},
		frontmatter.KV{Key: "ingestion_time", Value: now.UTC()},
		frontmatter.KV{Key: "scenario", Value: scenario},
		frontmatter.KV{Key: "source_cases", Value: ids},
	)
	if err != nil {
		return "", err
	}
	cs.Write(mdstore.MemoryPath("confirmed", "lesson", id), doc.Bytes())
	return id, nil
}

// Drawn is a rule drawn for a scenario: its id, the ids of the cases it
// was drawn from, and the run that writes it.
type Drawn struct {
	ID    string
	Cases []string
	Run   *mdstore.Run
}

// PlanRule draws the rule of a scenario from its distinct cases (see
// RuleCases) into confirmed/lesson/. existing is the rule already stored
// under RuleID(scenario), or nil: when it was drawn from the same cases,
// the run changes nothing. Fewer than MinRuleCases cases is ErrTooFewCases.
func PlanRule(scenario string, cases []*mdstore.Memory, author string, existing *mdstore.Memory, now time.Time) (*Drawn, error) {
	run := mdstore.NewRun("memory promote-rule "+RuleID(scenario), now)
	id, err := DrawRule(scenario, cases, author, now, run.Changes)
	if err != nil {
		return nil, err
	}
	ids := make([]string, len(cases))
	for i, m := range cases {
		ids[i] = m.ID
	}
	if existing != nil && strings.Join(existing.SourceCases, ",") == strings.Join(ids, ",") {
		run.Changes = &mdstore.Changeset{} // the same rule from the same cases: nothing to do
	}
	run.Decide(fmt.Sprintf("rule %s from %s", id, strings.Join(ids, ", ")))
	return &Drawn{ID: id, Cases: ids, Run: run}, nil
}

// PromoteRuleRequest asks to draw the rule of a scenario.
type PromoteRuleRequest struct {
	Scenario string `json:"scenario" jsonschema:"the scenario whose lesson cases (at least 3 distinct) make the rule"`
	// Author is the rule's author ("" is "curator").
	Author string `json:"author,omitempty"`
	// Save are the options of the store transaction's save.
	Save []mdstore.SaveOption `json:"-"`
}

// PromoteRuleReport is the rule drawn, the cases it was drawn from, its
// commit, and the lesson files that could not be read (left out).
type PromoteRuleReport struct {
	Commit      string                 `json:"commit"`
	ID          string                 `json:"id"`
	Invalid     []*mdstore.InvalidFile `json:"invalid"`
	Scenario    string                 `json:"scenario"`
	SourceCases []string               `json:"source_cases"`
}

// PromoteRule draws the scenario's rule from its inbox lesson cases
// (dedup prefix: config.yaml memory.dedup_prefix) into confirmed/lesson/
// and commits it. A scenario or author holding a secret is refused, and
// so is a scenario with fewer than MinRuleCases distinct cases; a case
// holding a secret is left out and reported.
func PromoteRule(_ context.Context, tx *mdstore.Tx, req PromoteRuleRequest) (*PromoteRuleReport, error) {
	scenario := strings.TrimSpace(req.Scenario)
	if scenario == "" {
		return nil, refuse.Requestf("the scenario must not be empty")
	}
	author := req.Author
	if author == "" {
		author = "curator"
	}
	s := tx.Store
	if err := refuseSecret("promote-rule", s.Secrets().Check(secrets.Field{Name: "--scenario", Text: scenario}, secrets.Field{Name: "--author", Text: author})); err != nil {
		return nil, err
	}
	list, err := cache.ListMemories(s, mdstore.MemoryQuery{Status: "inbox", Type: "lesson", Secrets: s.Secrets()})
	if err != nil {
		return nil, err
	}
	// a rule file that cannot be read is drawn again
	existing, _ := s.FindMemory(RuleID(scenario))
	d, err := PlanRule(scenario, RuleCases(list.Memories, scenario, s.Config.Memory.DedupPrefix), author, existing, s.Now())
	if err != nil {
		return nil, refuse.Blocked(err)
	}
	if legacy, err := s.FindMemory(legacyRuleID(scenario)); err == nil && legacy.Maturity == "rule" {
		d.Run.Changes.Delete(legacy.Path)
		d.Run.Decide(fmt.Sprintf("rule %s is now %s", legacy.ID, d.ID))
	}
	commit, err := tx.Save(d.Run, req.Save...)
	if err != nil {
		return nil, err
	}
	return &PromoteRuleReport{Commit: commit, ID: d.ID, Invalid: nonNil(list.Invalid), Scenario: scenario, SourceCases: d.Cases}, nil
}
