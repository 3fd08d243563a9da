package curate

import (
	"fmt"
	"time"

	"github.com/curator-dev/curator/mdstore"
)

// Trashed is the `trashed` map of a memory in the trash.
type Trashed struct {
	At          string   `yaml:"at"`
	Reason      string   `yaml:"reason"`
	Run         string   `yaml:"run,omitempty"`
	DuplicateOf string   `yaml:"duplicate_of,omitempty"`
	Score       *float64 `yaml:"score,omitempty"`
	// From is the folder it came from, so restore can put it back.
	From string `yaml:"from"`
}

// Observation is the `observation` map set on promotion.
type Observation struct {
	StartedAt  time.Time `yaml:"started_at"`
	WindowDays int       `yaml:"window_days"`
	Outcome    string    `yaml:"outcome"`
}

// ObservationDays is the observation period of a promoted memory.
const ObservationDays = 7

// ApplyMemory turns a plan into file moves. Every entry of the plan must be in byID.
func ApplyMemory(p *MemoryPlan, byID map[string]*mdstore.Memory, run string, now time.Time, cs *mdstore.Changeset) error {
	for _, group := range [][]MemoryAction{p.Duplicates, p.Discarded} {
		for _, a := range group {
			score := a.Score
			if err := TrashMemory(byID[a.ID], Trashed{Reason: a.Reason, Run: run, DuplicateOf: a.DuplicateOf, Score: &score}, now, cs); err != nil {
				return err
			}
		}
	}
	for _, a := range p.Promoted {
		if err := PromoteMemory(byID[a.ID], now, cs); err != nil {
			return err
		}
	}
	return nil
}

// TrashMemory moves a memory to the trash, recording why.
func TrashMemory(m *mdstore.Memory, t Trashed, now time.Time, cs *mdstore.Changeset) error {
	t.At = now.UTC().Format(time.RFC3339)
	t.From = folderOf(m)
	if err := setAll(m, "status", "trash", "trashed", t); err != nil {
		return err
	}
	cs.Move(m.Path, mdstore.MemoryPath("trash", m.Type, m.ID), m.Doc.Bytes())
	return nil
}

// PromoteMemory moves a memory to confirmed/<type>/ and starts its observation period.
func PromoteMemory(m *mdstore.Memory, now time.Time, cs *mdstore.Changeset) error {
	obs := Observation{StartedAt: now.UTC(), WindowDays: ObservationDays, Outcome: "pending"}
	if err := setAll(m, "maturity", "confirmed", "status", "confirmed", "observation", obs); err != nil {
		return err
	}
	cs.Move(m.Path, mdstore.MemoryPath("confirmed", m.Type, m.ID), m.Doc.Bytes())
	return nil
}

// RestoreMemory puts a trashed memory back where it was.
func RestoreMemory(m *mdstore.Memory, cs *mdstore.Changeset) (string, error) {
	if m.Status != "trash" {
		return "", fmt.Errorf("memory %s is not in the trash (it is %s)", m.ID, m.Status)
	}
	status := "inbox"
	if from, _ := m.Trashed["from"].(string); from == "confirmed" {
		status = "confirmed"
	}
	if err := setAll(m, "status", status); err != nil {
		return "", err
	}
	if err := m.Doc.Delete("trashed"); err != nil {
		return "", err
	}
	dst := mdstore.MemoryPath(status, m.Type, m.ID)
	cs.Move(m.Path, dst, m.Doc.Bytes())
	return dst, nil
}

func folderOf(m *mdstore.Memory) string {
	return m.Status
}

// setAll sets key/value pairs on the memory's document.
func setAll(m *mdstore.Memory, kv ...any) error {
	for i := 0; i+1 < len(kv); i += 2 {
		k := kv[i].(string)
		if err := m.Doc.Set(k, kv[i+1]); err != nil {
			return fmt.Errorf("%s: %w", m.Path, err)
		}
	}
	return nil
}
