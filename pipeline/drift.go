package pipeline

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"time"
)

// Drift is a validated artifact whose file changed afterwards.
type Drift struct {
	Phase string `json:"phase"`
	Path  string `json:"path"`
	// Change is "modified" or "deleted".
	Change      string `json:"change"`
	ValidatedAt string `json:"validated_at"`
	// ModifiedAt is the file's current modification time ("" when deleted).
	ModifiedAt string `json:"modified_at,omitempty"`
}

// DetectDrift compares every validated artifact of the state with its file:
// size and modification time first (when both match, nothing changed),
// sha256 as the verdict (a touched but identical file is no drift).
func DetectDrift(st *State) []Drift {
	var out []Drift
	for _, ph := range st.Phases {
		for _, a := range ph.Artifacts {
			if a.ValidatedAt == "" || a.SHA256 == "" {
				continue
			}
			d := Drift{Phase: ph.PhaseName, Path: a.Path, ValidatedAt: a.ValidatedAt}
			abs, _, err := ProjectFile(st.ProjectPath, a.Path)
			if err != nil {
				continue
			}
			fi, err := os.Stat(abs)
			if errors.Is(err, os.ErrNotExist) {
				d.Change = "deleted"
				out = append(out, d)
				continue
			} else if err != nil {
				continue
			}
			mtime := fi.ModTime().UTC().Format(time.RFC3339Nano)
			if fi.Size() == a.SizeBytes && mtime == a.LastModified {
				continue
			}
			if sum, err := fileSHA256(abs); err == nil && sum == a.SHA256 {
				continue
			}
			d.Change, d.ModifiedAt = "modified", mtime
			out = append(out, d)
		}
	}
	return out
}

func fileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
