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

// benchSync times sharing a store between two clones of one remote. The
// store holds --records memories; clone A changes --changed of them (a
// tag), clone B as many (its confidence), --common of them the same
// records as A. Then, on copies of the same prepared folders, alternating:
//
//	curator: A `curator sync` (push), B `curator sync` (merge, push), A `curator sync` (fast-forward)
//	git:     A `git pull --no-edit && git push`, B the same (the registered
//	         merge driver merges the common records), A `git pull --no-edit`
//
// and compares the totals (median of --repeat) and the trees they end with.
//
//	curatorbench sync [--records 100000] [--changed 1000] [--common 100] [--repeat 3] [--curator BIN]
func benchSync(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("sync", flag.ContinueOnError)
	records := fs.Int("records", 100000, "memories in the store")
	changed := fs.Int("changed", 1000, "memories each clone changes")
	common := fs.Int("common", 100, "memories both clones change")
	repeat := fs.Int("repeat", 3, "timed runs of each way (the median is reported)")
	bin := fs.String("curator", "", "curator binary (default: built from this module)")
	keep := fs.Bool("keep", false, "keep the temporary folder")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *common > *changed || *changed > *records {
		return fmt.Errorf("need --common ≤ --changed ≤ --records")
	}
	tmp, curator, done, err := benchFolder("sync", *keep, *bin, stdout)
	if err != nil {
		return err
	}
	defer done()
	// The merge driver git runs is `curator merge-driver`: the built binary
	// comes first in PATH.
	env := []string{"PATH=" + filepath.Dir(curator) + string(os.PathListSeparator) + os.Getenv("PATH"),
		"GIT_AUTHOR_NAME=bench", "GIT_AUTHOR_EMAIL=bench@localhost", "GIT_COMMITTER_NAME=bench", "GIT_COMMITTER_EMAIL=bench@localhost"}
	prep := filepath.Join(tmp, "prep")
	start := time.Now()
	if err := prepareSync(prep, env, curator, *records, *changed, *common); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "sync: %d memories; clones A and B change %d each, %d in common (prepared in %.1f s)\n",
		*records, *changed, *common, time.Since(start).Seconds())

	ways := []struct {
		name  string
		steps [][]string // dir, then the command
	}{
		{"curator sync", [][]string{
			{"A", curator, "--quiet", "sync"}, {"B", curator, "--quiet", "sync"}, {"A", curator, "--quiet", "sync"}}},
		{"git pull && git push", [][]string{
			{"A", "sh", "-c", "git pull -q --no-edit --no-rebase && git push -q"},
			{"B", "sh", "-c", "git pull -q --no-edit --no-rebase && git push -q"},
			{"A", "git", "pull", "-q", "--no-edit", "--no-rebase"}}},
	}
	times := make([][]time.Duration, len(ways))
	trees := make([]string, len(ways))
	for r := 0; r < *repeat; r++ {
		for w, way := range ways {
			trial := filepath.Join(tmp, fmt.Sprintf("trial-%d", w))
			os.RemoveAll(trial)
			if out, err := exec.Command("cp", "-a", prep, trial).CombinedOutput(); err != nil {
				return fmt.Errorf("copying the prepared clones: %v\n%s", err, out)
			}
			// Warm the page cache for both ways alike.
			if _, err := pipeRun(trial, nil, "sh", "-c", "cat A/.git/index B/.git/index > /dev/null; git -C A status -s >/dev/null; git -C B status -s > /dev/null"); err != nil {
				return err
			}
			var total time.Duration
			for _, st := range way.steps {
				d, err := pipeRun(filepath.Join(trial, st[0]), env, st[1], st[2:]...)
				if err != nil {
					return fmt.Errorf("%s: %w", way.name, err)
				}
				total += d
			}
			times[w] = append(times[w], total)
			a, err := gitOut(filepath.Join(trial, "A"), "rev-parse", "HEAD^{tree}")
			if err != nil {
				return err
			}
			b, err := gitOut(filepath.Join(trial, "B"), "rev-parse", "HEAD^{tree}")
			if err != nil {
				return err
			}
			if a != b {
				return fmt.Errorf("%s: the clones end with different trees", way.name)
			}
			trees[w] = a
			os.RemoveAll(trial)
		}
	}
	c, g := pipeMedian(times[0]), pipeMedian(times[1])
	fmt.Fprintf(stdout, "  %-28s %9.1f ms   (three steps, median of %d)\n", ways[1].name, pipeMS(g), *repeat)
	fmt.Fprintf(stdout, "  %-28s %9.1f ms\n", ways[0].name, pipeMS(c))
	fmt.Fprintf(stdout, "  ratio                        %9.2f×   (target ≤ 0.5×)\n", float64(c)/float64(g))
	same := "yes"
	if trees[0] != trees[1] {
		same = "no (" + trees[0] + " vs " + trees[1] + ")"
	}
	fmt.Fprintf(stdout, "  same merged tree both ways:  %s\n", same)
	return nil
}

// prepareSync makes prep/remote.git with a store of n memories, and the
// clones prep/A and prep/B, each with one commit changing k memories, the
// first common of them the same in both.
func prepareSync(prep string, env []string, curator string, n, k, common int) error {
	seed := filepath.Join(prep, "seed")
	if err := os.MkdirAll(seed, 0o755); err != nil {
		return err
	}
	run := func(dir string, name string, args ...string) error {
		_, err := pipeRun(dir, env, name, args...)
		return err
	}
	if err := run(seed, curator, "--quiet", "init"); err != nil {
		return err
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "reset refs/heads/main\nfrom HEAD\n\ncommit refs/heads/main\ncommitter curator <curator@localhost> %d +0000\ndata 10\nthe store\n",
		time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Unix())
	for i := 0; i < n; i++ {
		f := syncMemory(i, "", "3")
		fmt.Fprintf(&b, "M 100644 inline .curator/memory/inbox/m-%06d.md\ndata %d\n%s\n", i, len(f), f)
	}
	cmd := exec.Command("git", "fast-import", "--quiet")
	cmd.Dir, cmd.Stdin = seed, &b
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("git fast-import: %v\n%s", err, out)
	}
	for _, step := range [][]string{
		{seed, "git", "checkout", "-q", "-f", "main"},
		{prep, "git", "clone", "-q", "--bare", "seed", "remote.git"},
		{prep, "git", "clone", "-q", "remote.git", "A"},
		{prep, "git", "clone", "-q", "remote.git", "B"},
	} {
		if err := run(step[0], step[1], step[2:]...); err != nil {
			return err
		}
	}
	os.RemoveAll(seed)
	for side, dir := range map[string]string{"A": filepath.Join(prep, "A"), "B": filepath.Join(prep, "B")} {
		// A relative remote, so that each trial's copy pushes to its own.
		if err := run(dir, "git", "remote", "set-url", "origin", "../remote.git"); err != nil {
			return err
		}
		if err := run(dir, curator, "--quiet", "init", "--merge-driver"); err != nil {
			return err
		}
		for j := 0; j < k; j++ {
			i := j // the first `common` memories are changed by both
			if side == "B" && j >= common {
				i = k + j // B's own ones follow A's
			}
			tags, conf := "", "3"
			if side == "A" {
				tags = "  - from-a\n"
			} else {
				conf = "5"
			}
			p := filepath.Join(dir, ".curator/memory/inbox", fmt.Sprintf("m-%06d.md", i))
			if err := os.WriteFile(p, []byte(syncMemory(i, tags, conf)), 0o644); err != nil {
				return err
			}
		}
		if err := run(dir, "git", "commit", "-q", "-am", "changes of "+side); err != nil {
			return err
		}
	}
	return nil
}

// syncMemory is one inbox memory; tags are YAML list lines ("" none).
func syncMemory(i int, tags, confidence string) string {
	t := "tags: []\n"
	if tags != "" {
		t = "tags:\n" + tags
	}
	return fmt.Sprintf("---\nid: m-%06d\ntype: fact\nstatus: inbox\nmaturity: case\nbrief: fact number %d\nauthor: agent-a\n%s"+
		"content_confidence: %s\nimportance_factors:\n  proximity: 0.9\n  surprisal: 0.8\n  entity_priority: 0.7\n  unambiguity: 0.9\n"+
		"ingestion_time: 2026-01-01T00:00:00Z\n---\nbody %d\n", i, i, t, confidence, i)
}

// gitOut runs git in dir and returns its trimmed output.
func gitOut(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("git %s: %v", strings.Join(args, " "), err)
	}
	return strings.TrimSpace(string(out)), nil
}
