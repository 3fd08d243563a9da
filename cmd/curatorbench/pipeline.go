package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// benchPipeline times `curator pipeline transition` on a spec of about
// --size bytes with --stories user stories, at the step in the middle,
// against `cat` of the same spec in the same run.
//
//	curatorbench pipeline [--stories 200] [--size 1048576] [--runs 7] [--curator BIN]
func benchPipeline(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("pipeline", flag.ContinueOnError)
	stories := fs.Int("stories", 200, "user stories in the spec")
	size := fs.Int("size", 1<<20, "spec size in bytes")
	runs := fs.Int("runs", 7, "timed transitions (the median is reported)")
	bin := fs.String("curator", "", "curator binary (default: built from this module)")
	keep := fs.Bool("keep", false, "keep the temporary folder")
	if err := fs.Parse(args); err != nil {
		return err
	}
	tmp, curator, done, err := benchFolder("pipeline", *keep, *bin, stdout)
	if err != nil {
		return err
	}
	defer done()
	work := filepath.Join(tmp, "work")
	project := filepath.Join(work, "shop")
	if err := os.MkdirAll(project, 0o755); err != nil {
		return err
	}
	spec := pipeSpec(*stories, *size)
	if err := os.WriteFile(filepath.Join(project, "spec.md"), spec, 0o644); err != nil {
		return err
	}
	env := []string{"GIT_AUTHOR_NAME=bench", "GIT_AUTHOR_EMAIL=bench@localhost", "GIT_COMMITTER_NAME=bench", "GIT_COMMITTER_EMAIL=bench@localhost"}
	if _, err := pipeRun(work, env, curator, "init"); err != nil {
		return err
	}
	transition := func(step int) (time.Duration, error) {
		return pipeRun(work, env, curator, "--quiet", "pipeline", "transition", "--project", "shop", "--pipeline", "sdd",
			"--from", "spec-writer", "--to", "implementer", "--project-path", project, "--step", fmt.Sprint(step))
	}
	// The first transition creates the state; the timed ones start from it.
	if _, err := transition(1); err != nil {
		return err
	}
	mid := max(*stories/2, 1)
	var cur, floor []time.Duration
	for i := 0; i < *runs; i++ {
		d, err := pipeRun(work, nil, "cat", filepath.Join(project, "spec.md"))
		if err != nil {
			return err
		}
		floor = append(floor, d)
		// Alternate two middle steps, so every run changes the state and commits.
		if d, err = transition(mid + i%2); err != nil {
			return err
		}
		cur = append(cur, d)
	}
	c, f := pipeMedian(cur), pipeMedian(floor)
	brief, _ := os.ReadFile(filepath.Join(work, ".curator/pipelines/context-briefs/shop", fmt.Sprintf("2-implementer-step-%d.md", mid)))
	commits, _ := exec.Command("git", "-C", work, "rev-list", "--count", "HEAD").Output()
	fmt.Fprintf(stdout, "pipeline transition: spec %d bytes, %d user stories, step %d/%d, %d runs (median)\n", len(spec), *stories, mid, *stories, *runs)
	fmt.Fprintf(stdout, "  cat spec.md             %8.2f ms\n", pipeMS(f))
	fmt.Fprintf(stdout, "  curator transition      %8.2f ms   (validate, chunk, brief, state, dashboard, commit; process included)\n", pipeMS(c))
	fmt.Fprintf(stdout, "  ratio                   %8.1f×   (target ≤ 100×)\n", float64(c)/float64(f))
	fmt.Fprintf(stdout, "  brief                   %8d bytes; commits in the repository: %s", len(brief), commits)
	return nil
}

func pipeMS(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func pipeMedian(d []time.Duration) time.Duration {
	s := append([]time.Duration(nil), d...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}

// pipeRun runs a command in dir and returns its wall time.
func pipeRun(dir string, env []string, name string, args ...string) (time.Duration, error) {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdout = io.Discard
	var stderr strings.Builder
	cmd.Stderr = &stderr
	start := time.Now()
	err := cmd.Run()
	d := time.Since(start)
	if err != nil {
		return d, fmt.Errorf("%s %s: %v\n%s", name, strings.Join(args, " "), err, stderr.String())
	}
	return d, nil
}

// pipeSpec writes a spec-kit style spec of about size bytes with n stories.
func pipeSpec(n, size int) []byte {
	var b strings.Builder
	b.WriteString("# Feature Specification: Big shop\n\n**Status**: Draft\n\n## User Scenarios & Testing *(mandatory)*\n\n")
	per := max(size/max(n, 1)-290, 100)
	para := "As a shopper I want the shop to behave well so that I can buy what I need without surprises. "
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "### User Story %d - Capability number %d (Priority: P%d)\n\n", i, i, i%3+1)
		body := strings.Repeat(para, per/len(para)+1)[:per]
		fmt.Fprintf(&b, "%s\n\n**Acceptance Scenarios**:\n\n1. **Given** state %d, **When** the shopper acts, **Then** the shop answers within 300 ms.\n2. **Given** an error, **When** it happens, **Then** it is shown.\n\n", body, i)
	}
	b.WriteString("## Requirements *(mandatory)*\n\n### Functional Requirements\n\n- **FR-001**: The system MUST work.\n\n## Success Criteria *(mandatory)*\n\n- **SC-001**: Shoppers pay in under 2 minutes.\n")
	return []byte(b.String())
}
