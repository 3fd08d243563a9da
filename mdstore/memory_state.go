package mdstore

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"time"
)

// MemoryStatePath is the store-relative path of the memory watermark.
const MemoryStatePath = "memory/state.json"

// memoryStateCachePath is the store-relative, git-ignored file that keeps
// the watermark of passes that changed nothing (an empty hour makes no
// commit) and the inbox entries older than the watermark that a pass has
// already looked at.
const memoryStateCachePath = ".cache/memory-state.json"

// MemoryState is where the last curation window ended. memory/state.json
// holds the watermark of the last pass that made a commit; the cache may
// hold a later one and Seen.
type MemoryState struct {
	Watermark time.Time `json:"watermark"`
	LastRun   string    `json:"last_run,omitempty"`
	// Seen are the inbox entries older than Watermark that a pass has
	// looked at and left in the inbox (kept in the cache only).
	Seen []string `json:"seen,omitempty"`
}

// ReadMemoryState reads the watermark: the committed memory/state.json,
// or the cache when it is at least as late (the committed state is the
// floor). A missing file is the zero state; an unreadable cache is ignored.
func (s *Store) ReadMemoryState() (MemoryState, error) {
	var st MemoryState
	data, err := os.ReadFile(s.Path(MemoryStatePath))
	switch {
	case errors.Is(err, os.ErrNotExist):
	case err != nil:
		return st, err
	default:
		if err := json.Unmarshal(data, &st); err != nil {
			return st, fmt.Errorf("%s: %w", MemoryStatePath, err)
		}
		st.Seen = nil
	}
	var cached MemoryState
	if data, err := os.ReadFile(s.Path(memoryStateCachePath)); err == nil && json.Unmarshal(data, &cached) == nil && !cached.Watermark.Before(st.Watermark) {
		return cached, nil
	}
	return st, nil
}

// WriteMemoryStateCache keeps st in the git-ignored cache, so that the next
// pass starts from its watermark without a commit.
func (s *Store) WriteMemoryStateCache(st MemoryState) error {
	b, err := json.Marshal(st)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(s.Path(".cache"), 0o755); err != nil {
		return err
	}
	return WriteFileAtomic(s.Path(memoryStateCachePath), append(b, '\n'), 0o644)
}

// Bytes renders the committed state file (without Seen).
func (st MemoryState) Bytes() []byte {
	st.Seen = nil
	b, _ := json.MarshalIndent(st, "", "  ")
	return append(b, '\n')
}
