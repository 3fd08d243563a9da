package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// benchReview times `curator log` over a history of --runs curator runs
// against `git log --format=%B` of the same history, alternating, median
// of --repeat.
//
// Then it times `curator diff` of one run that moved --changed of
// --records memories (inbox → confirmed) against `git diff --stat` of the
// same commit.
//
// With --compare BIN a second build's runs alternate with the first's, and
// its median and ratio are printed below them.
//
//	curatorbench review [--runs 10000] [--records 100000] [--changed 1000] [--repeat 7] [--curator BIN] [--compare BIN]
func benchReview(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("review", flag.ContinueOnError)
	runs := fs.Int("runs", 10000, "curator runs in the history")
	repeat := fs.Int("repeat", 7, "timed runs of each command (the median is reported)")
	records := fs.Int("records", 100000, "memories in the store of the diff benchmark")
	changed := fs.Int("changed", 1000, "memories the diffed run promotes")
	bin := fs.String("curator", "", "curator binary (default: built from this module)")
	compare := fs.String("compare", "", "a second curator binary whose runs alternate with the first")
	keep := fs.Bool("keep", false, "keep the temporary folder")
	if err := fs.Parse(args); err != nil {
		return err
	}
	tmp, curator, done, err := benchFolder("review", *keep, *bin, stdout)
	if err != nil {
		return err
	}
	defer done()
	work := filepath.Join(tmp, "work")
	if err := os.MkdirAll(work, 0o755); err != nil {
		return err
	}
	env := []string{"GIT_AUTHOR_NAME=bench", "GIT_AUTHOR_EMAIL=bench@localhost", "GIT_COMMITTER_NAME=bench", "GIT_COMMITTER_EMAIL=bench@localhost"}
	if _, err := pipeRun(work, env, curator, "--quiet", "init"); err != nil {
		return err
	}
	start := time.Now()
	if err := importRuns(work, *runs); err != nil {
		return err
	}
	made := time.Since(start)
	times, err := reviewAlternate(work, *repeat, []string{"git", "log", "--format=%B"}, []string{"log"}, curator, *compare)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "review: a history of %d curator runs (made with git fast-import in %.1f s), %d runs each (median)\n", *runs+1, made.Seconds(), *repeat)
	fmt.Fprintf(stdout, "  git log --format=%%B        %8.2f ms\n", pipeMS(times[0]))
	reviewRatios(stdout, "curator log", times, 2)

	diffDir := filepath.Join(tmp, "diff")
	if err := os.MkdirAll(diffDir, 0o755); err != nil {
		return err
	}
	if _, err := pipeRun(diffDir, env, curator, "--quiet", "init"); err != nil {
		return err
	}
	if err := importPromotion(diffDir, *records, *changed); err != nil {
		return err
	}
	if times, err = reviewAlternate(diffDir, *repeat, []string{"git", "diff", "--stat", "HEAD~1", "HEAD"}, []string{"diff", "HEAD^!"}, curator, *compare); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "review: one run promoting %d of %d memories, %d runs each (median)\n", *changed, *records, *repeat)
	fmt.Fprintf(stdout, "  git diff --stat            %8.2f ms\n", pipeMS(times[0]))
	reviewRatios(stdout, "curator diff", times, 2.5)
	return nil
}

// reviewAlternate runs the floor, then curator's args with each binary
// (the second only when compare is set), repeat times in turn, in dir; it
// returns the medians in that order.
func reviewAlternate(dir string, repeat int, floor, args []string, curator, compare string) ([]time.Duration, error) {
	cmds := [][]string{floor, append([]string{curator}, args...)}
	if compare != "" {
		cmds = append(cmds, append([]string{compare}, args...))
	}
	runs := make([][]time.Duration, len(cmds))
	for i := 0; i < repeat; i++ {
		for j, c := range cmds {
			d, err := pipeRun(dir, nil, c[0], c[1:]...)
			if err != nil {
				return nil, err
			}
			runs[j] = append(runs[j], d)
		}
	}
	out := make([]time.Duration, len(runs))
	for j, r := range runs {
		out[j] = pipeMedian(r)
	}
	return out, nil
}

// reviewRatios prints curator's median against the floor's (times[0]),
// and the compared build's when there is one.
func reviewRatios(w io.Writer, name string, times []time.Duration, target float64) {
	fmt.Fprintf(w, "  %-26s %8.2f ms\n", name, pipeMS(times[1]))
	fmt.Fprintf(w, "  ratio                      %8.2f×   (target ≤ %g×)\n", float64(times[1])/float64(times[0]), target)
	if len(times) > 2 {
		fmt.Fprintf(w, "  %-26s %8.2f ms\n", name+" (--compare)", pipeMS(times[2]))
		fmt.Fprintf(w, "  ratio (--compare)          %8.2f×\n", float64(times[2])/float64(times[0]))
	}
}

// importPromotion commits n inbox memories, then one run that promotes
// the first k of them (each moved to confirmed/fact with its status
// changed), with git fast-import.
func importPromotion(dir string, n, k int) error {
	var b bytes.Buffer
	when := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Unix()
	memory := func(i int, status string) string {
		return fmt.Sprintf("---\nid: m-%06d\ntype: fact\nstatus: %s\nmaturity: case\nbrief: fact number %d\nauthor: agent-a\n"+
			"content_confidence: 4\nimportance_factors:\n  proximity: 0.9\n  surprisal: 0.8\n  entity_priority: 0.7\n  unambiguity: 0.9\n"+
			"ingestion_time: 2026-01-01T00:00:00Z\n---\nbody %d\n", i, status, i, i)
	}
	msg := "memory add: the store\n\nCurator-Run: 20260101T000000Z-000001\nCurator-Command: curator memory add\n"
	fmt.Fprintf(&b, "reset refs/heads/bench\nfrom HEAD\n\ncommit refs/heads/bench\ncommitter curator <curator@localhost> %d +0000\ndata %d\n%s\n", when, len(msg), msg)
	for i := 0; i < n; i++ {
		f := memory(i, "inbox")
		fmt.Fprintf(&b, "M 100644 inline .curator/memory/inbox/m-%06d.md\ndata %d\n%s\n", i, len(f), f)
	}
	msg = fmt.Sprintf("memory curate: %d promoted, 0 duplicates, 0 discarded, 0 kept\n\nCurator-Run: 20260101T010000Z-000002\nCurator-Command: curator memory curate\n", k)
	fmt.Fprintf(&b, "\ncommit refs/heads/bench\ncommitter curator <curator@localhost> %d +0000\ndata %d\n%s\n", when+3600, len(msg), msg)
	for i := 0; i < k; i++ {
		f := strings.Replace(memory(i, "confirmed"), "maturity: case", "maturity: confirmed", 1)
		fmt.Fprintf(&b, "D .curator/memory/inbox/m-%06d.md\nM 100644 inline .curator/memory/confirmed/fact/m-%06d.md\ndata %d\n%s\n", i, i, len(f), f)
	}
	cmd := exec.Command("git", "fast-import", "--quiet")
	cmd.Dir = dir
	cmd.Stdin = &b
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("git fast-import: %v\n%s", err, out)
	}
	c := exec.Command("git", "checkout", "-q", "-f", "bench")
	c.Dir = dir
	if out, err := c.CombinedOutput(); err != nil {
		return fmt.Errorf("git checkout: %v\n%s", err, out)
	}
	return nil
}

// importRuns appends n commits shaped as curator's memory runs (one
// memory file added each, the message with decisions and trailers) to
// the repository at dir, with git fast-import.
func importRuns(dir string, n int) error {
	var b bytes.Buffer
	when := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Unix()
	fmt.Fprintf(&b, "reset refs/heads/bench\nfrom HEAD\n\n")
	for i := 0; i < n; i++ {
		msg := fmt.Sprintf("memory curate 2026-01-01T%02d:00:00Z to 2026-01-01T%02d:00:00Z: %d promoted, %d duplicates, %d discarded, %d kept\n\n"+
			"promote m-%06d → confirmed/fact (channel A)\ntrash m-%06d-x: score 0.1 < 0.3\n\n"+
			"Curator-Run: 20260101T000000Z-%06x\nCurator-Command: curator memory curate\n", i%24, (i+1)%24, i%7, i%3, i%5, i%11, i, i, i)
		file := fmt.Sprintf("---\nid: m-%06d\ntype: fact\nstatus: confirmed\nbrief: fact %d\n---\nbody\n", i, i)
		fmt.Fprintf(&b, "commit refs/heads/bench\ncommitter curator <curator@localhost> %d +0000\ndata %d\n%s\n", when+int64(i)*3600, len(msg), msg)
		fmt.Fprintf(&b, "M 100644 inline .curator/memory/confirmed/fact/m-%06d.md\ndata %d\n%s\n", i, len(file), file)
	}
	cmd := exec.Command("git", "fast-import", "--quiet")
	cmd.Dir = dir
	cmd.Stdin = &b
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("git fast-import: %v\n%s", err, out)
	}
	for _, args := range [][]string{{"checkout", "-q", "-f", "bench"}} {
		c := exec.Command("git", args...)
		c.Dir = dir
		if out, err := c.CombinedOutput(); err != nil {
			return fmt.Errorf("git %v: %v\n%s", args, err, out)
		}
	}
	return nil
}
