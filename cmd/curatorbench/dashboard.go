package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"time"
)

// benchDashboard times `curator dashboard` on a store whose history holds
// --runs curator runs (memory adds, memory passes with their decisions,
// playbook curations with their metrics files, made with git fast-import)
// and --records records (confirmed memories, an inbox, bullets): first
// with no cache (the whole history read), then warm (the cache up to
// date), then after one more run (one commit read). The floor is `git log
// --format=%B` of the same history.
//
//	curatorbench dashboard [--runs 10000] [--records 100000] [--bullets 10000] [--repeat 5] [--curator BIN]
func benchDashboard(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("dashboard", flag.ContinueOnError)
	runs := fs.Int("runs", 10000, "curator runs in the history")
	records := fs.Int("records", 100000, "records in the store (bullets and memories)")
	bullets := fs.Int("bullets", 10000, "of the records, active bullets")
	repeat := fs.Int("repeat", 5, "timed runs of each warm measurement (the median is reported)")
	bin := fs.String("curator", "", "curator binary (default: built from this module)")
	keep := fs.Bool("keep", false, "keep the temporary folder")
	if err := fs.Parse(args); err != nil {
		return err
	}
	tmp, curator, done, err := benchFolder("dashboard", *keep, *bin, stdout)
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
	if err := importHealthHistory(work, *runs, *records-*bullets, *bullets); err != nil {
		return err
	}
	made := time.Since(start)
	// the floor's first run warms the page cache for both
	if _, err := pipeRun(work, nil, "git", "log", "--format=%B"); err != nil {
		return err
	}
	cold, err := pipeRun(work, nil, curator, "dashboard")
	if err != nil {
		return err
	}
	var warm, floors []time.Duration
	for i := 0; i < *repeat; i++ {
		d, err := pipeRun(work, nil, "git", "log", "--format=%B")
		if err != nil {
			return err
		}
		floors = append(floors, d)
		if d, err = pipeRun(work, nil, curator, "dashboard"); err != nil {
			return err
		}
		warm = append(warm, d)
	}
	floor := pipeMedian(floors)
	var next []time.Duration
	for i := 0; i < *repeat; i++ {
		if _, err := pipeRun(work, env, curator, "--quiet", "memory", "add", "--type", "fact", "--brief", fmt.Sprintf("one more %d", i), "body"); err != nil {
			return err
		}
		d, err := pipeRun(work, nil, curator, "dashboard")
		if err != nil {
			return err
		}
		next = append(next, d)
	}
	fmt.Fprintf(stdout, "dashboard: a history of %d curator runs and %d records (%d bullets; made with git fast-import in %.1f s)\n",
		*runs+1, *records, *bullets, made.Seconds())
	fmt.Fprintf(stdout, "  git log --format=%%B                %8.2f ms\n", pipeMS(floor))
	fmt.Fprintf(stdout, "  curator dashboard, no cache         %8.2f ms\n", pipeMS(cold))
	fmt.Fprintf(stdout, "  curator dashboard, cache up to date %8.2f ms   (median of %d; target < 2000 ms)\n", pipeMS(pipeMedian(warm)), *repeat)
	fmt.Fprintf(stdout, "  curator dashboard, after one run    %8.2f ms   (median of %d)\n", pipeMS(pipeMedian(next)), *repeat)
	return nil
}

// importHealthHistory commits memories confirmed memories (a few in the
// inbox) and bullets active bullets, then runs commits shaped as curator's
// runs: memory adds, hourly memory passes with their decision lines, and
// playbook curations with their metrics files.
func importHealthHistory(dir string, runs, memories, bullets int) error {
	cmd := exec.Command("git", "fast-import", "--quiet")
	cmd.Dir = dir
	in, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	var out bufio.Writer
	if err := cmd.Start(); err != nil {
		return err
	}
	out.Reset(in)
	b := &out
	when := time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC)
	file := func(path, text string) { fmt.Fprintf(b, "M 100644 inline %s\ndata %d\n%s\n", path, len(text), text) }
	commit := func(at time.Time, msg string) {
		fmt.Fprintf(b, "commit refs/heads/bench\ncommitter curator <curator@localhost> %d +0000\ndata %d\n%s\n", at.Unix(), len(msg), msg)
	}
	fmt.Fprintf(b, "reset refs/heads/bench\nfrom HEAD\n\n")
	commit(when, "memory add: the store\n\nCurator-Run: 20250601T000000Z-000000\nCurator-Command: curator memory add\n")
	types := []string{"fact", "concept", "lesson"}
	cats := []string{"strategy", "pattern", "api", "verification"}
	for i := 0; i < memories; i++ {
		status, folder := "confirmed", "confirmed/"+types[i%3]
		if i%1000 == 0 {
			status, folder = "inbox", "inbox"
		}
		file(fmt.Sprintf(".curator/memory/%s/m-%06d.md", folder, i), fmt.Sprintf("---\nid: m-%06d\ntype: %s\nstatus: %s\nmaturity: case\nbrief: memory number %d\n"+
			"author: agent-a\ncontent_confidence: 4\ningestion_time: 2025-06-01T00:00:00Z\n---\nbody %d\n", i, types[i%3], status, i, i))
	}
	for i := 0; i < bullets; i++ {
		cat := cats[i%len(cats)]
		file(fmt.Sprintf(".curator/context/bullets/%s/B-%05d.md", cat, i), fmt.Sprintf("---\nid: B-%05d\ncategory: %s\nconfidence: %.2f\npriority: 5\n"+
			"helpful_count: %d\nharmful_count: %d\nusage_count: %d\nversion: 1\nis_active: true\ncreated_at: 2025-06-01T00:00:00Z\n"+
			"updated_at: 2025-06-01T00:00:00Z\nvalidation: approved\n---\n\nBullet number %d says to check the %s before the change.\n",
			i, cat, float64(i%100)/100, i%13, i%7, i%17, i, cat))
	}
	for i := 1; i <= runs; i++ {
		at := when.Add(time.Duration(i) * time.Hour)
		id := fmt.Sprintf("%s-%06x", at.Format("20060102T150405Z"), i)
		switch i % 3 {
		case 0:
			msg := fmt.Sprintf("memory add m-run-%06d\n\nadd m-run-%06d: run memory\n\nCurator-Run: %s\nCurator-Command: curator memory add\n", i, i, id)
			commit(at, msg)
			file(fmt.Sprintf(".curator/memory/inbox/m-run-%06d.md", i), fmt.Sprintf("---\nid: m-run-%06d\ntype: fact\nstatus: inbox\nbrief: run memory %d\ningestion_time: %s\n---\nbody\n", i, i, at.Format(time.RFC3339)))
		case 1:
			msg := fmt.Sprintf("memory curate %s to %s: %d promoted, %d duplicates, %d discarded, %d kept\n\n"+
				"promote m-p%06d to confirmed/fact (channel A, score 0.88)\npromote m-q%06d to confirmed/concept (channel C, score 0.5)\ntrash m-t%06d: score 0.1 < 0.3\n\n"+
				"Curator-Run: %s\nCurator-Command: curator memory curate\n", at.Add(-time.Hour).Format(time.RFC3339), at.Format(time.RFC3339), 2, i%3, 1, i%5, i, i, i, id)
			commit(at, msg)
			file(".curator/memory/state.json", fmt.Sprintf("{\"watermark\": %q}\n", at.Format(time.RFC3339)))
		default:
			msg := fmt.Sprintf("context curate: %d new, %d reinforced, 0 merged, 0 proposed, 0 archived\n\nnew_bullet STRAT-%05d (reflection r%d lesson 1)\n\n"+
				"Curator-Run: %s\nCurator-Command: curator context curate\n", 1, i%4, i, i, id)
			commit(at, msg)
			file(fmt.Sprintf(".curator/context/metrics/%s/%s.json", at.Format("2006/01"), id),
				fmt.Sprintf("{\"after\": {\"active\": %d, \"by_category\": {\"strategy\": %d, \"pattern\": %d}}, \"invalid_files\": 0, \"run_id\": %q}\n", bullets+i, bullets/4+i/3, bullets/4, id))
		}
	}
	if err := out.Flush(); err != nil {
		return err
	}
	in.Close()
	if err := cmd.Wait(); err != nil {
		return fmt.Errorf("git fast-import: %v", err)
	}
	c := exec.Command("git", "checkout", "-q", "-f", "bench")
	c.Dir = dir
	if o, err := c.CombinedOutput(); err != nil {
		return fmt.Errorf("git checkout: %v\n%s", err, o)
	}
	return nil
}
