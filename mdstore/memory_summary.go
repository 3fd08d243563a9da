package mdstore

import (
	"hash/fnv"
	"time"

	"github.com/curator-dev/curator/config"
)

// MemorySummary is what the memory index keeps of a record: enough for a
// listing to tell whether it needs the file, without reading it.
type MemorySummary struct {
	Type          string
	IngestionTime time.Time
	// ObservationDue is when the record's pending observation window is
	// due (Memory.ObservationWindow); zero when it has none.
	ObservationDue time.Time
	// BriefHash is BriefHash(brief, Store.DedupPrefix()): records of one
	// dedup key have the same hash.
	BriefHash uint64
}

// Summary is the memory's summary, with the brief hashed over its first
// prefix runes.
func (m *Memory) Summary(prefix int) MemorySummary {
	_, due, _ := m.ObservationWindow()
	return MemorySummary{Type: m.Type, IngestionTime: m.IngestionTime, ObservationDue: due, BriefHash: BriefHash(m.Brief, prefix)}
}

// BriefHash is a 64-bit hash (FNV-1a) of the first n runes of brief: the
// same for every brief of one dedup key.
func BriefHash(brief string, n int) uint64 {
	h := fnv.New64a()
	for i := range brief {
		if n == 0 {
			h.Write([]byte(brief[:i]))
			return h.Sum64()
		}
		n--
	}
	h.Write([]byte(brief))
	return h.Sum64()
}

// DedupPrefix is how many runes of brief make a memory's dedup key
// (memory.dedup_prefix, its default when unset).
func (s *Store) DedupPrefix() int {
	if n := s.Config.Memory.DedupPrefix; n > 0 {
		return n
	}
	return config.DefaultDedupPrefix
}
