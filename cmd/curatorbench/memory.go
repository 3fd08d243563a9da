package main

import (
	"flag"
	"fmt"
	"io"
	"math/rand"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/curator-dev/curator/mdstore"
)

// benchMemory times `curator memory curate`.
//
//	--entries N: one window of N inbox entries, against cat of the same files.
//	--store N --window W: a W-entry window on a store already holding N
//	curated, committed entries, against the same window on an empty store.
func benchMemory(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("memory", flag.ContinueOnError)
	entries := fs.Int("entries", 0, "inbox entries in one window")
	store := fs.Int("store", 0, "entries already in the store")
	window := fs.Int("window", 1000, "entries in the hourly window (with --store)")
	bin := fs.String("curator", "", "curator binary (default: build it)")
	keep := fs.Bool("keep", false, "keep the temporary stores")
	runs := fs.Int("runs", 5, "timed windows per store (with --store; the median is reported)")
	profile := fs.String("cpuprofile", "", "write a CPU profile of the window's run (--entries) or of the last run on the large store (--store) to this file")
	compare := fs.String("compare", "", "a second curator binary whose runs alternate with the first (with --store)")
	timing := fs.Bool("timing", false, "print curator's own step times for the last run on each store")
	if err := fs.Parse(args); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "curatorbench-memory-")
	if err != nil {
		return err
	}
	if !*keep {
		defer os.RemoveAll(tmp)
	} else {
		fmt.Fprintln(stdout, "stores kept in", tmp)
	}
	curator, err := curatorBinary(*bin, tmp)
	if err != nil {
		return err
	}
	var env storeEnv
	if *profile != "" {
		p, err := filepath.Abs(*profile)
		if err != nil {
			return err
		}
		env.profile = []string{"CURATOR_CPUPROFILE=" + p}
	}
	switch {
	case *entries > 0:
		return benchMemoryWindow(stdout, curator, tmp, *entries, env.profile)
	case *store > 0:
		if *timing {
			env.timing = []string{"CURATOR_TIMING=1"}
		}
		return benchMemoryStore(stdout, curator, tmp, *store, *window, max(*runs, 1), env, *compare)
	}
	return fmt.Errorf("give --entries N or --store N --window W")
}

// hour0 is the first hour the generated entries are dated at: a week
// before today, so that every window a benchmark curates lies in the past
// (curator refuses a window that starts at or after now).
var hour0 = time.Now().UTC().Truncate(24 * time.Hour).Add(-7 * 24 * time.Hour)

func benchMemoryWindow(w io.Writer, curator, tmp string, n int, profile []string) error {
	dir := filepath.Join(tmp, "window")
	s, err := newBenchStore(dir)
	if err != nil {
		return err
	}
	from, to := hour0, hour0.Add(time.Hour)
	if err := generateInbox(s, 1, n, from, to); err != nil {
		return err
	}
	floor, err := catFloor(s.Path("memory/inbox"))
	if err != nil {
		return err
	}
	run, err := timeCmd(dir, profile, curator, "--quiet", "memory", "curate", "--from", from.Format(time.RFC3339), "--to", to.Format(time.RFC3339))
	if err != nil {
		return err
	}
	counts, err := folderCounts(s)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "memory curate, one window of %d inbox entries (%s)\n", n, counts)
	fmt.Fprintf(w, "  cat of the same files (floor):   %8.3f s\n", floor.Wall.Seconds())
	fmt.Fprintf(w, "  curator memory curate + commit:  %8.3f s\n", run.Wall.Seconds())
	fmt.Fprintf(w, "  ratio curate/cat:                %8.1f   (target ≤ 5)\n", run.Wall.Seconds()/floor.Wall.Seconds())
	fmt.Fprintf(w, "  peak RSS of curator:             %8.1f MB (target ≤ 300)\n", mb(run.MaxRSS))
	return nil
}

// storeEnv is the environment of the last timed runs: CURATOR_TIMING for
// both stores, CURATOR_CPUPROFILE for the large one.
type storeEnv struct{ timing, profile []string }

func benchMemoryStore(w io.Writer, curator, tmp string, storeN, windowN, runs int, env storeEnv, compare string) error {
	sizes := []int{0, storeN}
	var stores [2]*mdstore.Store
	for i, size := range sizes {
		dir := filepath.Join(tmp, fmt.Sprintf("store-%d", size))
		s, err := newBenchStore(dir)
		if err != nil {
			return err
		}
		stores[i] = s
		if size > 0 {
			// A day of earlier windows, curated and committed (untimed).
			if err := generateInbox(s, 1, size, hour0, hour0.Add(24*time.Hour)); err != nil {
				return err
			}
			if _, err := timeCmd(dir, nil, curator, "--quiet", "memory", "curate", "--from", hour0.Format(time.RFC3339), "--to", hour0.Add(24*time.Hour).Format(time.RFC3339)); err != nil {
				return err
			}
			counts, err := folderCounts(s)
			if err != nil {
				return err
			}
			fmt.Fprintf(w, "store before the windows: %s\n", counts)
		}
	}
	// Each timed run curates a fresh hour of windowN new entries. The runs on
	// the two stores alternate, so that both see the machine in the same
	// state (on a shared VM, system-call costs drift for minutes at a time),
	// and the disk is synced first so no run pays for the previous one's
	// writes.
	bins := []string{curator}
	if compare != "" {
		bins = append(bins, compare)
	}
	times := make([][2][]measurement, len(bins))
	hour := 48
	for r := 0; r < runs; r++ {
		for b, bin := range bins {
			for i, size := range sizes {
				s := stores[i]
				from := hour0.Add(time.Duration(hour) * time.Hour)
				to := from.Add(time.Hour)
				if err := generateInbox(s, size+1+(hour-48)*windowN, windowN, from, to); err != nil {
					return err
				}
				syncDisks()
				var runEnv []string
				if r == runs-1 && b == 0 {
					runEnv = env.timing
					if size > 0 {
						runEnv = append(runEnv, env.profile...)
					}
				}
				m, err := timeCmd(filepath.Dir(s.Dir), runEnv, bin, "--quiet", "memory", "curate", "--from", from.Format(time.RFC3339), "--to", to.Format(time.RFC3339))
				if err != nil {
					return err
				}
				times[b][i] = append(times[b][i], m)
				if runEnv != nil && m.Stderr != "" {
					fmt.Fprintf(w, "last run on the store of %d entries:\n%s", size, m.Stderr)
				}
			}
			hour++
		}
	}
	if compare != "" {
		for b, bin := range bins {
			e, f := medianRun(times[b][0]), medianRun(times[b][1])
			fmt.Fprintf(w, "%s: empty %.3f s, large %.3f s, ratio %.2f  (large:%s)\n", bin, e.Wall.Seconds(), f.Wall.Seconds(), f.Wall.Seconds()/e.Wall.Seconds(), runList(times[b][1]))
		}
		return nil
	}
	empty, full := medianRun(times[0][0]), medianRun(times[0][1])
	fmt.Fprintf(w, "memory curate, a %d-entry window, median of %d runs (each a new hour, the two stores alternating)\n", windowN, runs)
	fmt.Fprintf(w, "  on an empty store:               %8.3f s  (peak RSS %.1f MB)  runs:%s\n", empty.Wall.Seconds(), mb(empty.MaxRSS), runList(times[0][0]))
	fmt.Fprintf(w, "  on a store of %7d entries:    %8.3f s  (peak RSS %.1f MB)  runs:%s\n", storeN, full.Wall.Seconds(), mb(full.MaxRSS), runList(times[0][1]))
	fmt.Fprintf(w, "  ratio:                           %8.2f   (target ≤ 1.5)\n", full.Wall.Seconds()/empty.Wall.Seconds())
	return nil
}

// medianRun is the run with the median wall time.
func medianRun(ms []measurement) measurement {
	s := append([]measurement(nil), ms...)
	sort.Slice(s, func(i, j int) bool { return s[i].Wall < s[j].Wall })
	return s[len(s)/2]
}

func runList(ms []measurement) string {
	var b strings.Builder
	for _, m := range ms {
		fmt.Fprintf(&b, " %.3f", m.Wall.Seconds())
	}
	return b.String()
}

func newBenchStore(dir string) (*mdstore.Store, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	s, _, err := mdstore.Init(dir)
	if err != nil {
		return nil, err
	}
	_, err = s.CommitStore(mdstore.CommitInfo{Summary: "curator init", RunID: "bench-init", Command: "curatorbench"})
	return s, err
}

// generateInbox writes n deterministic inbox entries with ids first…first+n-1
// spread over [from, to), and commits them. The mix: about 10% promoted,
// 15% discarded, 10% same-author duplicates, the rest kept.
func generateInbox(s *mdstore.Store, first, n int, from, to time.Time) error {
	rng := rand.New(rand.NewSource(int64(first)))
	types := []string{"fact", "concept", "lesson"}
	cs := &mdstore.Changeset{}
	step := to.Sub(from) / time.Duration(n+1)
	for i := 0; i < n; i++ {
		id := fmt.Sprintf("m%07d", first+i)
		typ := types[rng.Intn(3)]
		brief := fmt.Sprintf("observation %d about module %d and its build", first+i, rng.Intn(1000))
		author := fmt.Sprintf("agent-%d", rng.Intn(5))
		f := [4]float64{0.3 + 0.5*rng.Float64(), 0.2 + 0.5*rng.Float64(), rng.Float64(), rng.Float64()}
		conf := 3
		switch r := rng.Intn(100); {
		case r < 10: // promoted through channel B
			f[1], typ = 0.95, "fact"
		case r < 25: // noise
			f = [4]float64{0.1, 0.1, 0.1, 0.1}
		case r < 35 && i > 0: // a same-author copy of a recent brief
			brief = fmt.Sprintf("observation %d about module", first+i-1)
		}
		var b strings.Builder
		fmt.Fprintf(&b, "---\nid: %s\ntype: %s\nstatus: inbox\nmaturity: case\nbrief: %s\nauthor: %s\ntags:\n  - go\n  - t%d\ncontent_confidence: %d\n", id, typ, brief, author, rng.Intn(20), conf)
		fmt.Fprintf(&b, "importance_factors:\n  proximity: %.3f\n  surprisal: %.3f\n  entity_priority: %.3f\n  unambiguity: %.3f\n", f[0], f[1], f[2], f[3])
		fmt.Fprintf(&b, "ingestion_time: %s\n---\n", from.Add(step*time.Duration(i+1)).Format(time.RFC3339Nano))
		fmt.Fprintf(&b, "Entry %d. %s\n\nSome context an agent wrote down while working on module %d, with enough words to look like a real note about a build failure and its fix.\n", first+i, brief, rng.Intn(1000))
		cs.Write(mdstore.MemoryPath("inbox", typ, id), []byte(b.String()))
	}
	tx, err := s.Begin(mdstore.TxOptions{Command: "curatorbench"})
	if err != nil {
		return err
	}
	defer tx.Close()
	_, err = tx.Save(&mdstore.Run{Changes: cs, Commit: mdstore.CommitInfo{Summary: fmt.Sprintf("bench: %d inbox entries", n), RunID: fmt.Sprintf("bench-gen-%d", first)}})
	return err
}

func folderCounts(s *mdstore.Store) (string, error) {
	var parts []string
	for _, dir := range []string{"memory/inbox", "memory/confirmed/fact", "memory/confirmed/concept", "memory/confirmed/lesson", "memory/trash"} {
		m, err := filepath.Glob(s.Path(dir + "/*.md"))
		if err != nil {
			return "", err
		}
		parts = append(parts, fmt.Sprintf("%s %d", strings.TrimPrefix(dir, "memory/"), len(m)))
	}
	return strings.Join(parts, ", "), nil
}
