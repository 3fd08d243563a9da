package memory

import "github.com/curator-dev/curator/mdstore"

// tolerance is how close to a threshold a value may be and still count as
// reaching it: a score of exactly 0.75 passes ">= 0.75".
const tolerance = 1e-9

func atLeast(v, threshold float64) bool { return v >= threshold-tolerance }

// Score is 0.4·proximity + 0.3·surprisal + 0.2·entity_priority + 0.1·unambiguity;
// a missing factor counts as 0.
func Score(m *mdstore.Memory) float64 {
	return 0.4*m.Factor("proximity") + 0.3*m.Factor("surprisal") +
		0.2*m.Factor("entity_priority") + 0.1*m.Factor("unambiguity")
}

// Thresholds of the memory pass (SPEC §3.2).
const (
	PromoteScore        = 0.75 // channel A
	PromoteSurprisal    = 0.9  // channel B
	PromoteEntity       = 0.7  // channel C
	PromoteEntityTags   = 2    // channel C
	TrashScore          = 0.3  // below: trash
	ChannelAConfidence  = 4
	ChannelBCConfidence = 3
)

// Channel returns the promotion channel ("A", "B" or "C") a fact or concept
// qualifies by, or "" when it does not qualify.
func Channel(m *mdstore.Memory, score float64) string {
	c := m.Confidence()
	switch {
	case atLeast(score, PromoteScore) && c >= ChannelAConfidence:
		return "A"
	case atLeast(m.Factor("surprisal"), PromoteSurprisal) && c >= ChannelBCConfidence:
		return "B"
	case atLeast(m.Factor("entity_priority"), PromoteEntity) && len(m.Tags) >= PromoteEntityTags && c >= ChannelBCConfidence:
		return "C"
	}
	return ""
}
