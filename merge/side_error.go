package merge

import "fmt"

// SideError is a version of a file that does not parse; Side is "base",
// "ours" or "theirs", and Err names the line.
type SideError struct {
	Path, Side string
	Err        error
}

func (e *SideError) Error() string { return fmt.Sprintf("%s (%s): %v", e.Path, e.Side, e.Err) }

func (e *SideError) Unwrap() error { return e.Err }
