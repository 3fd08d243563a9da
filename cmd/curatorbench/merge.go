package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/curator-dev/curator/merge"
)

// benchMerge times the three-way merge of one memory record whose body has
// --lines lines (about 5 MB at 120,000), changed on both sides: one line in
// 80 changed by ours, one in 80 deleted by theirs, one in 400 changed by both
// differently (a conflict), a line added by theirs every 40 lines, and a
// counter changed on each side. Alternating, median of --repeat:
//
//	floor:   git merge-file -p BASE OURS THEIRS (the same three files)
//	curator: curator merge-driver BASE OURS THEIRS PATH (as git runs it)
//
// with curator's peak RSS, and merge.File in this process (time and bytes
// allocated).
//
//	curatorbench merge [--lines 120000] [--repeat 3] [--curator BIN]
func benchMerge(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("merge", flag.ContinueOnError)
	lines := fs.Int("lines", 120000, "lines of the record's body")
	repeat := fs.Int("repeat", 3, "timed runs of each (the median is reported)")
	bin := fs.String("curator", "", "curator binary (default: built from this module)")
	keep := fs.Bool("keep", false, "keep the temporary folder")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *lines < 400 || *repeat < 1 {
		return fmt.Errorf("need --lines ≥ 400 and --repeat ≥ 1")
	}
	tmp, curator, done, err := benchFolder("merge", *keep, *bin, stdout)
	if err != nil {
		return err
	}
	defer done()
	base, ours, theirs := mergeSides(*lines)
	files := map[string][]byte{"base.md": base, "ours.md": ours, "theirs.md": theirs}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(tmp, name), data, 0o644); err != nil {
			return err
		}
	}
	conflicts := *lines / 400
	fmt.Fprintf(stdout, "merge: one record, body of %d lines (%.1f MB per side), %d conflicts\n", *lines, mb(int64(len(base))), conflicts)

	// Each run merges into a fresh copy of ours; git and the driver exit
	// non-zero when something conflicts.
	const path = ".curator/memory/inbox/m-000001.md"
	var floor, cur []measurement
	for range *repeat {
		m, err := timeCmd(tmp, nil, "sh", "-c", `git merge-file -p "$@" > merged-git.md; [ $? -lt 128 ]`, "sh", "ours.md", "base.md", "theirs.md")
		if err != nil {
			return err
		}
		floor = append(floor, m)
		if err := os.WriteFile(filepath.Join(tmp, "merged.md"), ours, 0o644); err != nil {
			return err
		}
		m, err = timeCmd(tmp, nil, "sh", "-c", `"$@"; [ $? -le 1 ]`, "sh", curator, "merge-driver", "base.md", "merged.md", "theirs.md", path)
		if err != nil {
			return err
		}
		cur = append(cur, m)
		got, err := os.ReadFile(filepath.Join(tmp, "merged.md"))
		if err != nil {
			return err
		}
		if n := bytes.Count(got, []byte("\n<<<<<<< ours\n")); n != conflicts {
			return fmt.Errorf("curator merge-driver left %d conflicts, want %d:\n%s", n, conflicts, m.Stderr)
		}
	}
	f, c := medianRun(floor), medianRun(cur)
	fmt.Fprintf(stdout, "  git merge-file -p (floor):     %9.1f ms   (median of %d)\n", pipeMS(f.Wall), *repeat)
	fmt.Fprintf(stdout, "  curator merge-driver:          %9.1f ms\n", pipeMS(c.Wall))
	fmt.Fprintf(stdout, "  ratio curator/git:             %9.2f×\n", float64(c.Wall)/float64(f.Wall))
	fmt.Fprintf(stdout, "  peak RSS of curator:           %9.1f MB   (git merge-file, with its shell: %.1f MB)\n", mb(c.MaxRSS), mb(f.MaxRSS))

	// The same merge in this process: the merge alone, no start-up or I/O.
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	start := time.Now()
	res, err := merge.File("memory/inbox/m-000001.md", base, ours, theirs)
	wall := time.Since(start)
	runtime.ReadMemStats(&after)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "  merge.File of this build:      %9.1f ms, %.1f MB allocated, %d conflicts\n",
		pipeMS(wall), mb(int64(after.TotalAlloc-before.TotalAlloc)), len(res.Conflicts))
	return nil
}

// mergeSides is the benchmark's record: base, ours and theirs.
func mergeSides(n int) (base, ours, theirs []byte) {
	front := func(helpful, harmful int) string {
		return fmt.Sprintf("---\nid: m-000001\ntype: fact\nstatus: inbox\nmaturity: case\nbrief: a long record\nauthor: agent-a\n"+
			"tags: []\nhelpful_count: %d\nharmful_count: %d\ningestion_time: 2026-01-01T00:00:00Z\n---\n", helpful, harmful)
	}
	var b, o, t bytes.Buffer
	b.WriteString(front(1, 0))
	o.WriteString(front(2, 0))
	t.WriteString(front(1, 1))
	for i := range n {
		line := fmt.Sprintf("- note %07d: the agent learnt something here.\n", i)
		if i%10 == 9 {
			line = "\n"
		} else if i%50 == 0 {
			line = "## Notes\n"
		}
		b.WriteString(line)
		switch {
		case i%400 == 17:
			fmt.Fprintf(&o, "- note %07d: ours changed this one.\n", i)
			fmt.Fprintf(&t, "- note %07d: theirs changed this one.\n", i)
		case i%80 == 37:
			fmt.Fprintf(&o, "- note %07d: ours changed this one.\n", i)
			t.WriteString(line)
		case i%80 == 77:
			o.WriteString(line)
		case i%40 == 3:
			o.WriteString(line)
			t.WriteString(line)
			fmt.Fprintf(&t, "- note %07d: theirs added this one.\n", i)
		default:
			o.WriteString(line)
			t.WriteString(line)
		}
	}
	return b.Bytes(), o.Bytes(), t.Bytes()
}
