package mdstore

import (
	"io/fs"

	"github.com/curator-dev/curator/internal/safepath"
)

// ReadMemoryFile is the file of the memory with this id as it is now
// (frontmatter and body, parsed or not), in the inbox, confirmed or the
// trash; fs.ErrNotExist when there is none, or it leads out of the store.
func (s *Store) ReadMemoryFile(id string) ([]byte, error) {
	return s.readIDFile(s.ExistingMemoryFile(id))
}

// ReadBulletFile is the file of the bullet with this id as it is now,
// active or archived; fs.ErrNotExist when there is none, or it leads out
// of the store.
func (s *Store) ReadBulletFile(id string) ([]byte, error) {
	return s.readIDFile(s.ExistingBulletFile(id))
}

// readIDFile reads the store file rel ("" none).
func (s *Store) readIDFile(rel string) ([]byte, error) {
	if rel == "" {
		return nil, fs.ErrNotExist
	}
	return safepath.ReadInside(s.Dir, s.Path(rel))
}
