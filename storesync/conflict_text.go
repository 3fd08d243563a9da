package storesync

import (
	"fmt"
	"path"
	"strings"
	"unicode/utf8"

	"github.com/curator-dev/curator/merge"
)

// What sync and resolve say of a conflict: where in which file, the key and
// both values in short, and what became of theirs. A whole file is never
// printed.

// shortLen is the most runes of a value a message shows.
const shortLen = 60

// ConflictText names a conflict: the file and line, the key, both values.
func ConflictText(c merge.Conflict) string {
	switch c.Kind {
	case merge.AddedConflict:
		return fmt.Sprintf("%s: both sides created it with different content", c.Path)
	case merge.WholeConflict:
		return fmt.Sprintf("%s: both sides changed it differently, and it merges only whole", c.Path)
	case merge.FolderConflict:
		return fmt.Sprintf("%s: moved to two folders of the same rank: ours %s, theirs %s", c.Path, path.Dir(c.Ours), path.Dir(c.Theirs))
	case merge.DuplicateConflict:
		return fmt.Sprintf("%s: a second copy of the record", c.Path)
	}
	what := c.Key
	if what == "" {
		what = "lines"
		if strings.HasSuffix(c.Path, ".md") {
			what = "body"
		}
	}
	return fmt.Sprintf("%s:%d %s: ours %s, theirs %s", c.Path, c.Line, what, short(c.Ours), short(c.Theirs))
}

// Outcome is what the merge did with theirs, in the words of a merge that
// went ahead (--allow-conflicts, resolve). theirsCommit and prefix make
// the command that shows a version the merge did not keep.
func Outcome(c merge.Conflict, theirsCommit, prefix string) string {
	switch c.Kind {
	case merge.ValueConflict:
		return "ours kept, theirs recorded under merge_conflicts"
	case merge.LinesConflict:
		return "both kept between conflict markers"
	case merge.AddedConflict, merge.WholeConflict:
		return fmt.Sprintf("ours kept; theirs' version is not in the file: git show %s:%s%s", abbrev(theirsCommit), prefix, c.Path)
	case merge.FolderConflict:
		return "kept in ours' folder"
	case merge.DuplicateConflict:
		return "the first copy kept, the second dropped"
	}
	return "ours kept"
}

// KeptText says what a record deleted on one side became.
func KeptText(c merge.Conflict) string {
	changed, deleter := "ours", "theirs"
	if c.Ours == "(deleted)" {
		changed, deleter = "theirs", "ours"
	}
	if c.Kind == merge.MovedKept {
		return fmt.Sprintf("kept %s where %s moved it: %s deleted it", c.Path, changed, deleter)
	}
	return fmt.Sprintf("kept %s with %s' change: %s deleted it", c.Path, changed, deleter)
}

// short is a value on one line, cut after shortLen runes.
func short(v string) string {
	v = strings.Join(strings.Fields(strings.ReplaceAll(strings.TrimRight(v, "\n"), "\n", " ⏎ ")), " ")
	if utf8.RuneCountInString(v) <= shortLen {
		if v == "" {
			return "(empty)"
		}
		return v
	}
	r := []rune(v)
	return string(r[:shortLen]) + "…"
}

func abbrev(hash string) string {
	if len(hash) > 12 {
		return hash[:12]
	}
	return hash
}

// RenumberText says which side's new record got which id.
func RenumberText(r merge.Renumber) string {
	whose := "our"
	if r.Side == merge.Theirs {
		whose = "their"
	}
	return fmt.Sprintf("renumbered %s unpublished %s as %s (%s)", whose, r.Old, r.New, r.Path)
}

// list names at most ten paths.
func list(paths []string) string {
	if len(paths) > 10 {
		return strings.Join(paths[:10], ", ") + fmt.Sprintf(" and %d more", len(paths)-10)
	}
	return strings.Join(paths, ", ")
}

// plural is n with the word for one or for many.
func plural(n int, one, many string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
