package cache

import (
	"slices"
	"time"

	"github.com/curator-dev/curator/mdstore"
)

// Unchanged reports whether the bullet folders still hold the files this
// listing read, as cheaply as the bullet index tells it: the same category
// folders, each with the times the listing recorded (one stat per folder,
// no file stated). A folder that changed close to the listing (within the
// racy window of its clock), or whose files could not all be held (an
// unreadable file, reported again by a new listing), is not trusted: false,
// and the caller lists the bullets again. Curator, git and most editors
// write a file by renaming a new one over it, which changes its folder; a
// file rewritten in place keeps its folder's times, as for the bullet index.
func (ib *IndexedBullets) Unchanged(s *mdstore.Store) bool {
	var dirs []string
	for _, root := range []string{"context/bullets", "context/archive"} {
		cats, err := mdstore.Subfolders(s.Path(root))
		if err != nil {
			return false
		}
		for _, cat := range cats {
			dirs = append(dirs, root+"/"+cat)
		}
	}
	slices.Sort(dirs)
	if !slices.Equal(dirs, ib.dirs) {
		return false
	}
	now := time.Now().UnixNano()
	for _, dir := range dirs {
		rec, held := ib.folders[dir]
		st, ok := statDir(s.Path(dir))
		if !held || !ok || rec.racy || rec.mtime != st.mtime || rec.ctime != st.ctime || now-st.mtime < racyWindow.Nanoseconds() {
			return false
		}
	}
	return true
}
