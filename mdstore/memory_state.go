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

// MemoryState is memory/state.json: where the last curation window ended.
type MemoryState struct {
	Watermark time.Time `json:"watermark"`
	LastRun   string    `json:"last_run,omitempty"`
}

// ReadMemoryState reads the watermark; a missing file is the zero state.
func (s *Store) ReadMemoryState() (MemoryState, error) {
	var st MemoryState
	data, err := os.ReadFile(s.Path(MemoryStatePath))
	if errors.Is(err, os.ErrNotExist) {
		return st, nil
	}
	if err != nil {
		return st, err
	}
	if err := json.Unmarshal(data, &st); err != nil {
		return st, fmt.Errorf("%s: %w", MemoryStatePath, err)
	}
	return st, nil
}

// Bytes renders the state file.
func (st MemoryState) Bytes() []byte {
	b, _ := json.MarshalIndent(st, "", "  ")
	return append(b, '\n')
}
