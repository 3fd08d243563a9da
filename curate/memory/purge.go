package memory

import (
	"fmt"
	"time"

	"github.com/curator-dev/curator/mdstore"
)

// PurgeDue returns the trashed memories whose trashed.at lies more than
// olderThan before now, in the order given. An entry whose trashed.at is
// missing or not a time is never due: it stays until someone looks at it.
func PurgeDue(trashed []*mdstore.Memory, olderThan time.Duration, now time.Time) []*mdstore.Memory {
	var due []*mdstore.Memory
	for _, m := range trashed {
		if m.Status != "trash" {
			continue
		}
		at, _ := m.Trashed["at"].(string)
		t, err := ParseTime(at)
		if err != nil || now.Sub(t) <= olderThan {
			continue
		}
		due = append(due, m)
	}
	return due
}

// PlanPurge is the run that removes the trashed memories due for purging
// (PurgeDue) from the store; history keeps them. It returns the run and
// the ids it removes.
func PlanPurge(trashed []*mdstore.Memory, olderThan time.Duration, now time.Time) (*mdstore.Run, []string) {
	due := PurgeDue(trashed, olderThan, now)
	ids := make([]string, len(due))
	for i, m := range due {
		ids[i] = m.ID
	}
	run := mdstore.NewRun(fmt.Sprintf("memory trash purge: %s", plural(len(ids), "entry", "entries")), now)
	for _, m := range due {
		run.Changes.Delete(m.Path)
		run.Decide("purge " + m.ID)
	}
	return run, ids
}

func plural(n int, one, many string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
}
