package main

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// benchWatch measures `curator watch` beside a project of --files files:
// for --writes changes of a validated artifact, the time from the write to
// the drift being in the pipeline state file (p50, p99), beside the time
// inotifywait takes to report the same writes in the same run; then the
// watcher's CPU use while nothing changes for --idle.
//
//	curatorbench watch [--files 100000] [--writes 200] [--idle 60s] [--debounce 100ms] [--poll 0] [--curator BIN]
func benchWatch(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("watch", flag.ContinueOnError)
	files := fs.Int("files", 100000, "files under watch in the project folder")
	writes := fs.Int("writes", 200, "timed writes of the validated artifact")
	idle := fs.Duration("idle", 60*time.Second, "how long the idle CPU use is measured")
	debounce := fs.Duration("debounce", 100*time.Millisecond, "watch's --debounce")
	poll := fs.Duration("poll", 0, "watch's --poll (0: file events)")
	bin := fs.String("curator", "", "curator binary (default: built from this module)")
	keep := fs.Bool("keep", false, "keep the temporary folder")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if _, err := exec.LookPath("inotifywait"); err != nil {
		return errors.New("inotifywait is not installed (Debian: apt-get install inotify-tools)")
	}
	tmp, curator, done, err := benchFolder("watch", *keep, *bin, stdout)
	if err != nil {
		return err
	}
	defer done()
	work := filepath.Join(tmp, "work")
	project := filepath.Join(work, "shop")
	if err := os.MkdirAll(project, 0o755); err != nil {
		return err
	}
	folders, err := fillProject(project, *files)
	if err != nil {
		return err
	}
	spec := pipeSpec(5, 8000)
	specPath := filepath.Join(project, "spec.md")
	if err := os.WriteFile(specPath, spec, 0o644); err != nil {
		return err
	}
	env := []string{"GIT_AUTHOR_NAME=bench", "GIT_AUTHOR_EMAIL=bench@localhost", "GIT_COMMITTER_NAME=bench", "GIT_COMMITTER_EMAIL=bench@localhost"}
	if _, err := pipeRun(work, env, curator, "init"); err != nil {
		return err
	}
	if _, err := pipeRun(work, env, curator, "--quiet", "pipeline", "transition", "--project", "shop", "--pipeline", "sdd",
		"--from", "spec-writer", "--to", "implementer", "--project-path", project); err != nil {
		return err
	}

	// inotifywait reports the closed writes of the artifact, with the time
	// it read each one.
	iw := exec.Command("inotifywait", "-m", "-r", "-e", "close_write", "--format", "%w%f", project)
	iwOut, _ := iw.StdoutPipe()
	iwErr, _ := iw.StderrPipe()
	if err := iw.Start(); err != nil {
		return err
	}
	defer iw.Process.Kill()
	if err := waitLine(iwErr, "Watches established", 120*time.Second); err != nil {
		return fmt.Errorf("inotifywait: %w", err)
	}
	seen := make(chan time.Time, *writes*2)
	go func() {
		sc := bufio.NewScanner(iwOut)
		for sc.Scan() {
			if sc.Text() == specPath {
				seen <- time.Now()
			}
		}
	}()

	w := exec.Command(curator, "watch", "--pipelines", "--json", "--debounce", debounce.String(), "--poll", poll.String())
	w.Dir = work
	w.Env = append(os.Environ(), env...)
	wOut, _ := w.StdoutPipe()
	start := time.Now()
	if err := w.Start(); err != nil {
		return err
	}
	defer w.Process.Kill()
	watching, err := waitEvent(wOut, "watching", 300*time.Second)
	if err != nil {
		return fmt.Errorf("curator watch: %w", err)
	}
	setup := time.Since(start)
	go io.Copy(io.Discard, wOut)

	state := filepath.Join(work, ".curator/pipelines/pipeline-state-shop.json")
	var toState, toInotify []time.Duration
	for i := 0; i < *writes; i++ {
		data := append(append([]byte{}, spec...), fmt.Sprintf("\nChange %d.\n", i)...)
		sum := sha256.Sum256(data)
		want := hex.EncodeToString(sum[:])
		t0 := time.Now()
		if err := os.WriteFile(specPath, data, 0o644); err != nil {
			return err
		}
		if err := waitDrift(state, want, 30*time.Second); err != nil {
			return fmt.Errorf("write %d: %w", i, err)
		}
		toState = append(toState, time.Since(t0))
		select {
		case t := <-seen:
			toInotify = append(toInotify, t.Sub(t0))
		case <-time.After(10 * time.Second):
			return fmt.Errorf("write %d: inotifywait reported nothing", i)
		}
		time.Sleep(20 * time.Millisecond)
	}

	// Idle: nothing changes; the watcher's CPU time over the interval.
	time.Sleep(2 * time.Second)
	cpu0, err := cpuTime(w.Process.Pid)
	if err != nil {
		return err
	}
	time.Sleep(*idle)
	cpu1, err := cpuTime(w.Process.Pid)
	if err != nil {
		return err
	}
	w.Process.Signal(syscall.SIGTERM)
	w.Wait()

	p50s, p99s := percentile(toState, 50), percentile(toState, 99)
	p50i, p99i := percentile(toInotify, 50), percentile(toInotify, 99)
	target := *debounce + 150*time.Millisecond
	if *poll > 0 {
		target += *poll
	}
	idlePct := 100 * (cpu1 - cpu0).Seconds() / idle.Seconds()
	fmt.Fprintf(stdout, "watch: %d files in %d folders under watch (%s, %d folders watched, ready in %.1f s), %d writes of a validated artifact, debounce %v\n",
		*files, folders, watching.Mode, watching.Folders, setup.Seconds(), *writes, *debounce)
	fmt.Fprintf(stdout, "  inotifywait reports the write    p50 %7.2f ms   p99 %7.2f ms\n", pipeMS(p50i), pipeMS(p99i))
	fmt.Fprintf(stdout, "  drift in the state file (commit) p50 %7.2f ms   p99 %7.2f ms   (target p99 ≤ %v)\n", pipeMS(p50s), pipeMS(p99s), target)
	fmt.Fprintf(stdout, "  idle CPU over %v                %7.3f %%         (target < 1%%; %.2f s of CPU used before, during the writes)\n", *idle, idlePct, cpu0.Seconds())
	return nil
}

// fillProject writes n small files into folders of 100 and returns how
// many folders it made.
func fillProject(dir string, n int) (int, error) {
	folders := 0
	for i := 0; i < n; i++ {
		sub := filepath.Join(dir, "src", fmt.Sprintf("d%04d", i/100))
		if i%100 == 0 {
			if err := os.MkdirAll(sub, 0o755); err != nil {
				return 0, err
			}
			folders++
		}
		if err := os.WriteFile(filepath.Join(sub, fmt.Sprintf("f%06d.go", i)), []byte("package x\n"), 0o644); err != nil {
			return 0, err
		}
	}
	return folders, nil
}

// waitLine reads r until a line holds text.
func waitLine(r io.Reader, text string, within time.Duration) error {
	found := make(chan error, 1)
	go func() {
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			if strings.Contains(sc.Text(), text) {
				found <- nil
				go io.Copy(io.Discard, r)
				return
			}
		}
		found <- fmt.Errorf("ended before %q", text)
	}()
	select {
	case err := <-found:
		return err
	case <-time.After(within):
		return fmt.Errorf("no %q within %v", text, within)
	}
}

// watchEvent is the part of a watch event the benchmark reads.
type watchEvent struct {
	Event   string `json:"event"`
	Mode    string `json:"mode"`
	Folders int    `json:"folders"`
	Message string `json:"message"`
}

// waitEvent reads JSON events from r until one of kind.
func waitEvent(r io.Reader, kind string, within time.Duration) (watchEvent, error) {
	found := make(chan watchEvent, 1)
	fail := make(chan error, 1)
	go func() {
		dec := json.NewDecoder(r)
		for {
			var e watchEvent
			if err := dec.Decode(&e); err != nil {
				fail <- err
				return
			}
			if e.Event == kind {
				found <- e
				return
			}
		}
	}()
	select {
	case e := <-found:
		return e, nil
	case err := <-fail:
		return watchEvent{}, err
	case <-time.After(within):
		return watchEvent{}, fmt.Errorf("no %q event within %v", kind, within)
	}
}

// waitDrift polls the state file until its drift names the content sum.
func waitDrift(state, sum string, within time.Duration) error {
	deadline := time.Now().Add(within)
	for time.Now().Before(deadline) {
		if data, err := os.ReadFile(state); err == nil && strings.Contains(string(data), `"sha256": "`+sum+`"`) {
			return nil
		}
		time.Sleep(time.Millisecond)
	}
	return fmt.Errorf("the drift of content %.12s is not in %s within %v", sum, state, within)
}

// cpuTime is the user + system CPU time of a process (Linux /proc).
func cpuTime(pid int) (time.Duration, error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	// Fields after the command name (which may hold spaces) start at ")".
	f := strings.Fields(string(data[strings.LastIndexByte(string(data), ')')+2:]))
	utime, _ := strconv.ParseInt(f[11], 10, 64)
	stime, _ := strconv.ParseInt(f[12], 10, 64)
	const clockTicks = 100 // USER_HZ on Linux
	return time.Duration(utime+stime) * time.Second / clockTicks, nil
}

// percentile is the p-th percentile (nearest rank) of d.
func percentile(d []time.Duration, p int) time.Duration {
	s := append([]time.Duration(nil), d...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	i := (p*len(s)+99)/100 - 1
	return s[max(0, min(i, len(s)-1))]
}
