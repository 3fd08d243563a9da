package watchmode

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/curator-dev/curator/curate/memory"
	"github.com/curator-dev/curator/curate/playbook"
	"github.com/curator-dev/curator/mdstore"
)

// curateMemory runs the memory pass over the window from the watermark to
// now, as `curator memory curate` does, under the store's lock. A window
// without candidates saves nothing, so two watchers of one store never
// both curate it: the second finds the watermark moved. A locked store
// puts the pass off by another quiet time.
func (w *watcher) curateMemory() {
	var rep *memory.CurateReport
	s, err := w.opts.Store()
	var tx *mdstore.Tx
	if err == nil {
		tx, err = s.Begin(w.opts.Tx)
	}
	if err == nil {
		rep, err = memory.Curate(context.Background(), tx, memory.CurateRequest{SkipEmpty: true, Save: w.opts.Save})
		tx.Close()
	}
	if w.putOff(err, w.memTimer, "memory curation") {
		return
	}
	ev := Event{Event: "memory-curate"}
	if rep != nil {
		ev.Report, _ = json.Marshal(rep)
		ev.Commit = rep.Commit
		ev.Summary = fmt.Sprintf("window %s: %d candidate(s), %d promoted, %d duplicate(s) trashed, %d discarded, %d kept",
			rep.Window, len(rep.Candidates), len(rep.Promoted), len(rep.Duplicates), len(rep.Discarded), len(rep.Kept))
		if len(rep.Candidates) == 0 {
			ev.Summary = fmt.Sprintf("window %s: nothing new to curate", rep.Window)
		}
		ev.Skipped = rep.Invalid
	}
	w.finishCuration(ev, err)
}

// curateContext runs `context curate` with the flags of --curate-flags
// over the pending reflections, under the store's lock.
func (w *watcher) curateContext() {
	rep, err := w.contextCuration()
	if w.putOff(err, w.ctx, "context curation") {
		return
	}
	ev := Event{Event: "context-curate"}
	if rep != nil {
		ev.Report, _ = json.Marshal(rep)
		ev.Commit = rep.Commit
		ev.Skipped = rep.Skipped
		var parts []string
		for _, t := range playbook.ActionTypes {
			if n := rep.Counts[t]; n > 0 {
				parts = append(parts, fmt.Sprintf("%d %s", n, t))
			}
		}
		ev.Summary = fmt.Sprintf("%d reflection(s) merged", len(rep.ReflectionsMerged))
		if len(parts) > 0 {
			ev.Summary += ": " + strings.Join(parts, ", ")
		}
	}
	w.finishCuration(ev, err)
}

// contextCuration is one `context curate` run of the --curate-flags
// request.
func (w *watcher) contextCuration() (*playbook.Report, error) {
	s, err := w.opts.Store()
	if err != nil {
		return nil, err
	}
	req := *w.opts.Curate
	req.OutputJSON = true
	req.Saving = playbook.Saving{Tx: w.opts.Tx, Save: w.opts.Save, Agent: w.opts.Agent}
	return playbook.Curate(context.Background(), s, req)
}

// putOff reports a locked store and arms the timer again.
func (w *watcher) putOff(err error, t *time.Timer, what string) bool {
	if !busy(err) {
		return false
	}
	w.log.emit(Event{Event: "busy", Message: fmt.Sprintf("%v; %s tried again in %v", err, what, w.opts.CurateAfter)})
	t.Reset(w.opts.CurateAfter)
	return true
}

// finishCuration logs a curation, or its error.
func (w *watcher) finishCuration(ev Event, err error) {
	ev.Err = err
	w.log.emit(ev)
}
