package mdstore

import (
	"strings"

	"github.com/curator-dev/curator/internal/secrets"
)

// InboxIDs lists the ids of the inbox's records by their file names, without
// reading them.
func (s *Store) InboxIDs() ([]string, error) {
	names, err := RecordNames(s.Path("memory/inbox"))
	if err != nil {
		return nil, err
	}
	ids := make([]string, len(names))
	for i, n := range names {
		ids[i] = strings.TrimSuffix(n, ".md")
	}
	return ids, nil
}

// ReadInbox reads the inbox records of the given ids (light, as a Light
// listing reads them), on all cores; a file that cannot be read, or that
// holds a secret by pol, is reported invalid.
func (s *Store) ReadInbox(ids []string, pol *secrets.Policy) ([]*Memory, []*InvalidFile) {
	rels := make([]string, len(ids))
	for i, id := range ids {
		rels[i] = "memory/inbox/" + id + ".md"
	}
	var out []*Memory
	var bad []*InvalidFile
	for i, r := range s.ReadMemories(rels, true, nil, pol) {
		if r.Err != nil {
			bad = append(bad, InvalidFileOf(rels[i], r.Err))
			continue
		}
		out = append(out, r.Memory)
	}
	return out, bad
}
