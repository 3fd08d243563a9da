package memory

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/curator-dev/curator/frontmatter"
	"github.com/curator-dev/curator/mdstore"
)

// Errors of the one-memory edits. The caller asked for something the
// memory's state does not allow (*FixedKeyError, ErrInTrash,
// ErrNotInTrash), the edit would make an invalid record (ErrInvalidEdit),
// or a file is already where the memory would move (ErrOccupied).
var (
	ErrInTrash     = errors.New("already in the trash")
	ErrNotInTrash  = errors.New("not in the trash")
	ErrInvalidEdit = errors.New("the update would make an invalid memory")
	ErrOccupied    = errors.New("a file is already there")
)

// FixedKeyError is an update of a key that follows the file (id, status).
type FixedKeyError struct{ Key string }

func (e *FixedKeyError) Error() string {
	return e.Key + " follows the file; use delete/restore or maturity=confirmed (status may only be set to what that makes it)"
}

// RuleMaturityError is an update that would make a single memory a rule:
// maturity rule is reached only by drawing a rule from at least
// MinRuleCases cases of one scenario (PromoteRule), never by one case.
type RuleMaturityError struct {
	ID       string
	Scenario string
}

func (e *RuleMaturityError) Error() string {
	scenario := "S"
	if e.Scenario != "" {
		scenario = fmt.Sprintf("%q", e.Scenario)
	}
	return fmt.Sprintf("memory %s cannot be made a rule by an update: maturity rule is reached only by drawing a rule "+
		"from at least %d distinct cases of one scenario, with `curator memory promote-rule --scenario %s` (MCP: promote_to_rule); "+
		"the case stays as it is", e.ID, MinRuleCases, scenario)
}

// Set is one change of `memory update`: Key is a top-level key, or
// "key.sub" for one entry of a map; Value is the decoded YAML value.
type Set struct {
	Key   string
	Value any
}

// Edit is the change of one memory: where its file was, where it is
// afterwards, and the run that records it.
type Edit struct {
	ID   string
	From string
	To   string
	// Changed are the keys an update set, in the order given.
	Changed []string
	// Memory is the record as it will be written (checked like a file).
	Memory *mdstore.Memory
	Run    *mdstore.Run
}

// Occupied is an error wrapping ErrOccupied when the edit moves the file
// and exists says a file is already at its destination.
func (e *Edit) Occupied(exists func(rel string) bool) error {
	if e.To != e.From && exists(e.To) {
		return fmt.Errorf("cannot move %s to %s: %w", e.From, e.To, ErrOccupied)
	}
	return nil
}

// PlanAdd is the run that writes a new memory record (from mdstore.NewMemoryRecord).
func PlanAdd(m *mdstore.Memory, now time.Time) *Edit {
	run := mdstore.NewRun("memory add "+m.ID, now)
	run.Decide("add " + m.ID + ": " + m.Brief)
	run.Changes.Write(m.Path, m.Doc.Bytes())
	return &Edit{ID: m.ID, From: m.Path, To: m.Path, Memory: m, Run: run}
}

// PlanUpdate sets keys of a memory and says where its file goes: setting
// maturity to confirmed on an inbox entry promotes it (to confirmed/<type>/,
// with its observation period started), changing the type of a confirmed
// memory moves it to the folder of the new type; any other update rewrites
// the file in place. id cannot be set, maturity cannot become rule
// (*RuleMaturityError: rules are drawn by PlanRule), nor status to anything but what the
// edit makes it (*FixedKeyError). A promotion starts an observation period
// of days (config.yaml memory.observation_days). The edited
// record gets every check a file gets (ErrInvalidEdit). m's document is
// edited.
func PlanUpdate(m *mdstore.Memory, sets []Set, now time.Time, days int) (*Edit, error) {
	var changed []string
	var statuses []any
	for _, s := range sets {
		if s.Key == "status" {
			statuses = append(statuses, s.Value)
			continue
		}
		if s.Key == "id" {
			return nil, &FixedKeyError{Key: s.Key}
		}
		if err := setPath(m, s.Key, s.Value); err != nil {
			return nil, err
		}
		changed = append(changed, s.Key)
	}
	checked, err := mdstore.ParseMemory(m.Path, m.Doc.Bytes())
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidEdit, err)
	}
	if checked.Maturity == "rule" && m.Maturity != "rule" {
		return nil, &RuleMaturityError{ID: m.ID, Scenario: strings.TrimSpace(checked.Scenario)}
	}
	// status follows the folder: it may be set only to what the edit makes
	// it (status: confirmed beside maturity: confirmed, as the memory-curate
	// procedure patches a promotion).
	becomes := checked.Status
	if checked.Status == "inbox" && checked.Maturity == "confirmed" {
		becomes = "confirmed"
	}
	for _, v := range statuses {
		if v != becomes {
			return nil, &FixedKeyError{Key: "status"}
		}
	}
	run := mdstore.NewRun("memory update "+m.ID, now)
	run.Decide("update " + m.ID + ": " + strings.Join(changed, ", "))
	e := &Edit{ID: m.ID, From: m.Path, To: m.Path, Changed: changed, Memory: checked, Run: run}
	switch {
	case checked.Status == "inbox" && checked.Maturity == "confirmed":
		if err := promoteEdited(checked, changed, now, days, run.Changes); err != nil {
			return nil, err
		}
		e.To = mdstore.MemoryPath("confirmed", checked.Type, checked.ID)
	case checked.Status == "confirmed" && checked.Type != m.Type:
		// confirmed/<type>/ follows the type
		e.To = mdstore.MemoryPath("confirmed", checked.Type, checked.ID)
		run.Changes.Move(m.Path, e.To, checked.Doc.Bytes())
	default:
		run.Changes.Write(m.Path, checked.Doc.Bytes())
	}
	return e, nil
}

// promoteEdited promotes an inbox entry that an update confirmed. An
// observation the same update sets is kept: set whole, it stays as given;
// set key by key, the keys it lacks get the promotion's values.
func promoteEdited(m *mdstore.Memory, changed []string, now time.Time, days int, cs *mdstore.Changeset) error {
	whole, partial := false, false
	for _, k := range changed {
		whole = whole || k == "observation"
		partial = partial || strings.HasPrefix(k, "observation.")
	}
	if !whole && !partial {
		return Promote(m, now, days, cs)
	}
	if !whole {
		have, err := mapKeys(m, "observation")
		if err != nil {
			return err
		}
		def := Observation{StartedAt: now.UTC(), WindowDays: days, Outcome: "pending"}
		for _, kv := range []struct {
			key string
			val any
		}{{"started_at", def.StartedAt}, {"window_days", def.WindowDays}, {"outcome", def.Outcome}} {
			if !have[kv.key] {
				if err := setPath(m, "observation."+kv.key, kv.val); err != nil {
					return err
				}
			}
		}
	}
	keys, err := promotionKeys(now, days)
	if err != nil {
		return err
	}
	var rest []frontmatter.KV
	for _, kv := range keys {
		if kv.Key != "observation" {
			rest = append(rest, kv)
		}
	}
	return promote(m, rest, cs)
}

// topNode returns the value node of a top-level key (nil when absent).
func topNode(m *mdstore.Memory, key string) (*yaml.Node, error) {
	var root yaml.Node
	if err := m.Doc.Decode(&root); err != nil {
		return nil, err
	}
	doc := &root
	if doc.Kind == yaml.DocumentNode && len(doc.Content) > 0 {
		doc = doc.Content[0]
	}
	for i := 0; i+1 < len(doc.Content); i += 2 {
		if doc.Content[i].Value == key {
			return doc.Content[i+1], nil
		}
	}
	return nil, nil
}

// mapKeys returns the keys of a top-level map (empty when absent).
func mapKeys(m *mdstore.Memory, key string) (map[string]bool, error) {
	n, err := topNode(m, key)
	if err != nil {
		return nil, err
	}
	out := map[string]bool{}
	if n != nil && n.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(n.Content); i += 2 {
			out[n.Content[i].Value] = true
		}
	}
	return out, nil
}

// setPath sets key (or key.sub for one entry of a map) to v. The other
// entries of the map keep their order and values; a new entry goes last.
func setPath(m *mdstore.Memory, key string, v any) error {
	top, sub, nested := strings.Cut(key, ".")
	if !nested {
		return m.Doc.Set(key, v)
	}
	inner, err := topNode(m, top)
	if err != nil {
		return err
	}
	if inner == nil || inner.Kind != yaml.MappingNode {
		inner = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	}
	var val yaml.Node
	if err := val.Encode(v); err != nil {
		return fmt.Errorf("%s: %w", key, err)
	}
	for i := 0; i+1 < len(inner.Content); i += 2 {
		if inner.Content[i].Value == sub {
			inner.Content[i+1] = &val
			return m.Doc.Set(top, inner)
		}
	}
	inner.Content = append(inner.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: sub}, &val)
	return m.Doc.Set(top, inner)
}

// PlanDelete moves a memory to the trash, recording why (reason, "deleted" when
// empty), by which run, and the folder to restore it to.
func PlanDelete(m *mdstore.Memory, reason string, now time.Time) (*Edit, error) {
	if m.Status == "trash" {
		return nil, fmt.Errorf("memory %s is %w", m.ID, ErrInTrash)
	}
	if reason == "" {
		reason = "deleted"
	}
	run := mdstore.NewRun("memory delete "+m.ID, now)
	if err := Trash(m, Trashed{Reason: reason, Run: run.Commit.RunID}, now, run.Changes); err != nil {
		return nil, err
	}
	return moved("delete", m, mdstore.MemoryPath("trash", m.Type, m.ID), run), nil
}

// PlanRemoveUnreadable is the delete of a memory whose file cannot be read (over
// the size limit, binary, broken frontmatter): it cannot be given a
// trashed record, so its file is removed as it is, with why; git history
// keeps it. To is "" (no file is left).
func PlanRemoveUnreadable(id, path, why string, now time.Time) *Edit {
	run := mdstore.NewRun("memory delete "+id+" (unreadable)", now)
	run.Changes.Delete(path)
	run.Decide("remove " + id + ": " + path + " cannot be read (" + why + "); git history keeps it")
	return &Edit{ID: id, From: path, Run: run}
}

// PlanRestore puts a trashed memory back in the folder it was trashed from.
func PlanRestore(m *mdstore.Memory, now time.Time) (*Edit, error) {
	run := mdstore.NewRun("memory restore "+m.ID, now)
	dst, err := putBack(m, run.Changes)
	if err != nil {
		return nil, err
	}
	return moved("restore", m, dst, run), nil
}

func moved(verb string, m *mdstore.Memory, dst string, run *mdstore.Run) *Edit {
	run.Decide(verb + " " + m.ID + ": " + m.Path + " → " + dst)
	return &Edit{ID: m.ID, From: m.Path, To: dst, Memory: m, Run: run}
}
