package memory

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/curator-dev/curator/internal/refuse"
	"github.com/curator-dev/curator/mdstore"
)

// PassMemoryLimit is the least soft memory limit a process should give
// a memory pass: a pass over a large window holds its entries and the
// index of every memory (about 150 MB for a window of 100,000 entries),
// and with the short runs' limit (half again the live heap) the garbage
// collector would run half again as often.
const PassMemoryLimit = 256 << 20

// CurateRequest asks for a memory pass. The window is Task's ("整理范围：
// <start> 到 <end>"), or [From, To) where a zero From is the watermark
// and a zero To now (see PassWindow); a task and a window together are a
// wrong request.
type CurateRequest struct {
	Task     string
	From, To time.Time
	// DryRun plans the pass and changes nothing.
	DryRun bool
	// DedupPrefix is the runes of brief that make the dedup key; 0 means
	// config.yaml memory.dedup_prefix.
	DedupPrefix int
	// DedupPrefixSet says the dedup prefix was given (`--dedup-prefix`):
	// then 0 is refused instead of read as config.yaml's.
	DedupPrefixSet bool
	// SkipEmpty saves nothing when the window holds no candidate (watch
	// mode: a pass another run already made is not made again).
	SkipEmpty bool
	// Progress is told how many of the window's entries were read.
	Progress func(done, total int)
	// Save are the options of the store transaction's save.
	Save []mdstore.SaveOption
}

// Check refuses a task beside a window and a dedup prefix under 1 (0
// when not given: config.yaml's).
func (r CurateRequest) Check() error {
	if r.Task != "" && (!r.From.IsZero() || !r.To.IsZero()) {
		return refuse.Requestf("give either a task or a window (from, to), not both")
	}
	if r.DedupPrefix < 0 || (r.DedupPrefixSet && r.DedupPrefix == 0) {
		return refuse.Phrasef("dedup_prefix", "%d: want at least 1", r.DedupPrefix)
	}
	return nil
}

// Curate runs the memory pass over the window (PreparePass), closes the
// observation windows due after it (Run.CloseDue) and commits both in one
// commit, then keeps the memory state in its cache; a dry run only reports.
// A pass that changes nothing makes no commit. Files it could not read
// are named in the report's Invalid, left untouched.
func Curate(_ context.Context, tx *mdstore.Tx, req CurateRequest) (*CurateReport, error) {
	if err := req.Check(); err != nil {
		return nil, err
	}
	s := tx.Store
	now := s.Now()
	w, err := PassWindow(req.Task, req.From, req.To, now, func() (time.Time, error) {
		st, err := s.ReadMemoryState()
		return st.Watermark, err
	})
	var werr *WindowError
	switch {
	case errors.As(err, &werr) && werr.Task:
		return nil, refuse.Request(fmt.Errorf("task: %w", err))
	case errors.As(err, &werr):
		return nil, refuse.Request(err)
	case err != nil:
		return nil, err
	}
	prefix := req.DedupPrefix
	if prefix == 0 {
		prefix = s.Config.Memory.DedupPrefix
	}
	r, err := PreparePass(s, w, Options{DedupPrefix: prefix, Progress: req.Progress}, mdstore.NewRunID(now), now)
	if err != nil {
		return nil, err
	}
	if err := r.CloseDue(s, now, prefix); err != nil {
		return nil, err
	}
	commit := ""
	if !req.DryRun && !(req.SkipEmpty && len(r.Plan.Candidates) == 0 && len(r.Invalid) == 0 && len(r.Closed) == 0) {
		if commit, err = tx.Save(r.Run, req.Save...); err != nil {
			return nil, err
		}
		if err := s.WriteMemoryStateCache(r.State); err != nil {
			return nil, err
		}
	}
	rep := r.Report(commit, req.DryRun)
	return &rep, nil
}
