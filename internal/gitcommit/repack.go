package gitcommit

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Repack starts `git gc --auto --quiet` in the background when the
// repository holds more loose objects or packs than git's own thresholds
// allow, and reports whether it did. Curator writes loose objects for a
// small commit and one pack for a large one, and go-git never repacks, so
// without this a repository that only curator commits to grows without
// bound.
//
// The thresholds are git's: gc.auto loose objects (default 6700,
// estimated as git does from the files in objects/17 times 256; 0 or less
// means never) and gc.autoPackLimit packs (default 50; 0 or less means
// never; git repacks past it). The repacking itself is real git's, so it is the repacking the
// user's own `git commit` would start, with git's own protection against
// running twice (gc.pid), its detaching (gc.autoDetach) and its refusal
// to run again soon after one failed (gc.log). It is started only after
// curator has released every lock, in its own session, and is never
// waited for, so it never holds up a run. Without git on PATH nothing
// is started: go-git's repacking rewrites packs in ways that are not safe
// beside a git process reading them.
func Repack(r *Repo) bool {
	if !needsRepack(r) {
		return false
	}
	git, err := exec.LookPath("git")
	if err != nil {
		return false
	}
	cmd := exec.Command(git, "gc", "--auto", "--quiet")
	cmd.Dir = r.root
	cmd.Env = gitEnv(os.Environ())
	cmd.SysProcAttr = detached()
	if err := cmd.Start(); err != nil {
		return false
	}
	go cmd.Wait() // reaps it if it ends while curator still runs
	return true
}

// needsRepack reports whether `git gc --auto` would repack: too many loose
// objects or too many packs, by the repository's settings.
func needsRepack(r *Repo) bool {
	if r.cfg.gcAuto <= 0 {
		return false
	}
	objects := filepath.Join(r.commonDir, "objects")
	if looseIn17(objects) > (r.cfg.gcAuto+255)/256 {
		return true
	}
	return r.cfg.gcAutoPackLimit > 0 && packCount(objects) > r.cfg.gcAutoPackLimit
}

// looseIn17 counts the loose objects in objects/17: git's sample of the
// loose objects (1/256 of them).
func looseIn17(objects string) int {
	entries, err := os.ReadDir(filepath.Join(objects, "17"))
	if err != nil {
		return 0
	}
	n := 0
	for _, e := range entries {
		if len(e.Name()) == 38 && isHex(e.Name()) {
			n++
		}
	}
	return n
}

// packCount counts the packs git would join: with an index, not kept.
func packCount(objects string) int {
	dir := filepath.Join(objects, "pack")
	entries, err := os.ReadDir(dir)
	if err != nil {
		return 0
	}
	names := map[string]bool{}
	for _, e := range entries {
		names[e.Name()] = true
	}
	n := 0
	for name := range names {
		base, ok := strings.CutSuffix(name, ".pack")
		if ok && names[base+".idx"] && !names[base+".keep"] {
			n++
		}
	}
	return n
}

func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// gitEnv is the environment without the variables that would point git at
// another repository, index or object folder than the one it finds from
// its working folder.
func gitEnv(env []string) []string {
	out := env[:0:0]
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		switch name {
		case "GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY", "GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_COMMON_DIR":
			continue
		}
		out = append(out, kv)
	}
	return out
}
