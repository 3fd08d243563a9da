package main

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/curator-dev/curator/frontmatter"
)

// The many-clones scenario: five clones of one bare remote each make a
// stream of random changes (memories added and curated, reflections
// curated into the playbook, counters incremented by hand, a bullet
// archived, memories edited by hand) and meet at random moments, through
// `curator sync` or through `git pull` with the merge driver and `curator
// resolve`. At the end every clone holds the same tree, every increment is
// counted once, no record is lost or doubled and git is clean.

const scenarioClones = 5

// mergeWay is how a clone meets the others.
type mergeWay string

const (
	bySync   mergeWay = "sync"
	byPull   mergeWay = "pull"
	byRebase mergeWay = "rebase"
)

func TestManyClonesSync(t *testing.T)   { manyClones(t, bySync, scenarioOps(100), 1) }
func TestManyClonesPull(t *testing.T)   { manyClones(t, byPull, 40, 2) }
func TestManyClonesRebase(t *testing.T) { manyClones(t, byRebase, 40, 3) }

// scenario is what the clones did, for the checks at the end.
type scenario struct {
	t          *testing.T
	way        mergeWay
	remote     string
	clones     []string
	increments map[string]int // base bullet id → increments made
	// lessonIncrements counts the increments each curated lesson was given
	// by the id its clone held then, keyed by the lesson's token.
	lessonIncrements map[string]int
	memories         []string // body tokens of the memories added
	edits            []string // tokens appended to memories by hand
	lessons          []string // tokens of the lessons reflected
	rng              *rand.Rand
	n                int
}

const baseBullets = 5

func manyClones(t *testing.T, way mergeWay, ops int, seed uint64) {
	if testing.Short() {
		t.Skip("the many-clones scenario runs hundreds of commands")
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("needs the git binary")
	}
	// The three ways run side by side: their commands are given git's
	// identity (testIdentity) instead of the test process.
	t.Parallel()
	root := t.TempDir()
	if keep := os.Getenv("CURATOR_SCENARIO_DIR"); keep != "" {
		root = filepath.Join(keep, t.Name()) // kept for inspection
		if err := os.MkdirAll(root, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	s := &scenario{t: t, way: way, remote: filepath.Join(root, "remote.git"), increments: map[string]int{}, lessonIncrements: map[string]int{},
		rng: rand.New(rand.NewPCG(seed, 42))}
	s.git(root, "init", "-q", "--bare", "-b", "main", s.remote)
	first := filepath.Join(root, "c0")
	s.git(root, "init", "-q", "-b", "main", first)
	curator(t, first, "init")
	os.MkdirAll(filepath.Join(first, ".curator/context/bullets/strategy"), 0o755)
	for i := 1; i <= baseBullets; i++ {
		id := fmt.Sprintf("STRAT-%03d", i)
		write(t, filepath.Join(first, ".curator/context/bullets/strategy", id+".md"), []byte(fmt.Sprintf(
			"---\nid: %s\ncategory: strategy\nhelpful_count: 1\nharmful_count: 0\nusage_count: 1\ncreated_at: \"2026-11-01T10:00:00Z\"\nupdated_at: \"2026-11-01T10:00:00Z\"\nis_active: true\nvalidation: approved\n---\nBase rule number %d about %s handling.\n",
			id, i, strings.Repeat("zq", i))))
	}
	s.git(first, "add", "-A", ".")
	s.git(first, "commit", "-q", "-m", "base playbook")
	s.git(first, "remote", "add", "origin", s.remote)
	s.git(first, "push", "-q", "origin", "main")
	s.clones = append(s.clones, first)
	for i := 1; i < scenarioClones; i++ {
		dir := filepath.Join(root, fmt.Sprintf("c%d", i))
		s.git(root, "clone", "-q", s.remote, dir)
		curator(t, dir, "init") // registers the merge driver in this clone
		s.clones = append(s.clones, dir)
	}

	for step := 0; step < ops; step++ {
		for c := range s.clones {
			s.op(c)
		}
	}
	// Two rounds: the first brings every clone's work to the remote, the
	// second brings the remote's final state to every clone.
	for round := 0; round < 2; round++ {
		for c := range s.clones {
			s.meet(c)
		}
	}
	s.check()
}

// op makes one random change in clone c, or meets the others.
func (s *scenario) op(c int) {
	dir := s.clones[c]
	s.n++
	switch r := s.rng.IntN(100); {
	case r < 25:
		tok := fmt.Sprintf("memtok%dx%d", c, s.n)
		curator(s.t, dir, "memory", "add", "--type", "fact", "--brief", "fact "+tok, "--author", fmt.Sprintf("agent%d", c),
			"--proximity", fmt.Sprint(s.rng.Float64()), "--surprisal", "0.5", "--id", "f-"+tok, "body "+tok)
		s.memories = append(s.memories, tok)
	case r < 30:
		// Ids chosen offline by two clones at once: a shared small set.
		id := fmt.Sprintf("f-shared-%d", s.rng.IntN(4))
		if s.exists(dir, id) {
			return
		}
		tok := fmt.Sprintf("memtok%dx%d", c, s.n)
		curator(s.t, dir, "memory", "add", "--type", "fact", "--brief", "shared "+tok, "--author", fmt.Sprintf("agent%d", c),
			"--proximity", "0.9", "--id", id, "body "+tok)
		s.memories = append(s.memories, tok)
	case r < 47:
		id := fmt.Sprintf("STRAT-%03d", 1+s.rng.IntN(baseBullets))
		s.increment(dir, id)
		s.increments[id]++
	case r < 55:
		// A lesson this clone holds, reinforced by the id it has here: the
		// increment must land on that lesson wherever its id ends up.
		if id, tok := s.someLesson(dir); id != "" {
			s.increment(dir, id)
			s.lessonIncrements[tok]++
		}
	case r < 60:
		curator(s.t, dir, "memory", "curate", "--quiet")
	case r < 70:
		tok := fmt.Sprintf("lessontok%dx%d", c, s.n)
		helpful := ""
		if id, held := s.someLesson(dir); id != "" && s.rng.IntN(2) == 0 {
			helpful = "helpful_bullets: [" + id + "]\n"
			s.lessonIncrements[held]++
		}
		refl := fmt.Sprintf("---\nid: refl-%s\nagent: agent%d\ntask: scenario\ncreated_at: 2026-11-20T10:00:00Z\n%slessons:\n  - content: Remember %s when %s happens in module %s.\n    category: strategy\n    confidence: 0.9\n---\nA reflection.\n",
			tok, c, helpful, tok, strings.Repeat("q", 1+s.rng.IntN(5))+tok, tok)
		f := filepath.Join(s.t.TempDir(), "r.md")
		write(s.t, f, []byte(refl))
		curator(s.t, dir, "context", "reflect", f)
		curator(s.t, dir, "context", "curate", "--quiet")
		s.lessons = append(s.lessons, tok)
	case r < 72:
		s.archive(dir, "STRAT-005")
	case r < 80:
		s.editMemory(dir, c)
	default:
		s.meet(c)
	}
}

var lessonTokRE = regexp.MustCompile(`Remember (lessontok\d+x\d+) `)

// someLesson picks one curated lesson of clone dir: its bullet id there and
// its token ("" when the clone holds none).
func (s *scenario) someLesson(dir string) (id, tok string) {
	entries, _ := os.ReadDir(filepath.Join(dir, ".curator/context/bullets/strategy"))
	var ids, toks []string
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(dir, ".curator/context/bullets/strategy", e.Name()))
		if err != nil {
			continue
		}
		if m := lessonTokRE.FindSubmatch(data); m != nil {
			ids = append(ids, strings.TrimSuffix(e.Name(), ".md"))
			toks = append(toks, string(m[1]))
		}
	}
	if len(ids) == 0 {
		return "", ""
	}
	i := s.rng.IntN(len(ids))
	return ids[i], toks[i]
}

// exists reports whether a memory id is anywhere in clone dir's store.
func (s *scenario) exists(dir, id string) bool {
	found := false
	filepath.WalkDir(filepath.Join(dir, ".curator/memory"), func(p string, d os.DirEntry, err error) error {
		if err == nil && d.Name() == id+".md" {
			found = true
		}
		return nil
	})
	return found
}

// bulletPath finds a bullet's file, active or archived.
func (s *scenario) bulletPath(dir, id string) string {
	for _, f := range []string{"bullets", "archive"} {
		p := filepath.Join(dir, ".curator/context", f, "strategy", id+".md")
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	s.t.Fatalf("%s: bullet %s is gone", dir, id)
	return ""
}

var (
	helpfulRE = regexp.MustCompile(`(?m)^helpful_count: (\d+)$`)
	updatedRE = regexp.MustCompile(`(?m)^updated_at: .*$`)
)

// increment adds one to a bullet's helpful_count by hand and commits.
func (s *scenario) increment(dir, id string) {
	p := s.bulletPath(dir, id)
	data, err := os.ReadFile(p)
	if err != nil {
		s.t.Fatal(err)
	}
	m := helpfulRE.FindSubmatch(data)
	if m == nil {
		s.t.Fatalf("%s has no helpful_count:\n%s", p, data)
	}
	n, _ := strconv.Atoi(string(m[1]))
	data = helpfulRE.ReplaceAll(data, []byte("helpful_count: "+strconv.Itoa(n+1)))
	// An agent's edit stamps its time, as curator's reinforcements do; git
	// runs no merge driver for a file both sides changed to the very same
	// bytes (sync still counts both increments then).
	data = updatedRE.ReplaceAll(data, []byte(`updated_at: "`+time.Now().UTC().Format(time.RFC3339Nano)+`"`))
	write(s.t, p, data)
	s.git(dir, "commit", "-q", "-am", "helpful "+id)
}

// archive moves a bullet to the archive by hand, as a reviewer would.
func (s *scenario) archive(dir, id string) {
	p := s.bulletPath(dir, id)
	if strings.Contains(p, "/archive/") {
		return
	}
	data, _ := os.ReadFile(p)
	data = bytes.Replace(data, []byte("is_active: true"), []byte("is_active: false"), 1)
	to := filepath.Join(dir, ".curator/context/archive/strategy", id+".md")
	os.MkdirAll(filepath.Dir(to), 0o755)
	s.git(dir, "mv", p, to)
	write(s.t, to, data)
	s.git(dir, "commit", "-q", "-am", "archive "+id)
}

// editMemory appends a line to one of the memories in clone c by hand.
func (s *scenario) editMemory(dir string, c int) {
	var files []string
	filepath.WalkDir(filepath.Join(dir, ".curator/memory"), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".md") {
			files = append(files, p)
		}
		return nil
	})
	if len(files) == 0 {
		return
	}
	p := files[s.rng.IntN(len(files))]
	data, _ := os.ReadFile(p)
	tok := fmt.Sprintf("edittok%dx%d", c, s.n)
	write(s.t, p, append(data, []byte("note "+tok+"\n")...))
	s.git(dir, "commit", "-q", "-am", "edit "+filepath.Base(p))
	s.edits = append(s.edits, tok)
}

// meet brings clone c and the remote together the scenario's way.
func (s *scenario) meet(c int) {
	dir := s.clones[c]
	if s.way == bySync {
		curator(s.t, dir, "sync", "--quiet")
		return
	}
	for attempt := 0; attempt < 5; attempt++ {
		args := []string{"pull", "-q", "--no-edit", "--no-rebase", "origin", "main"}
		if s.way == byRebase {
			args[3] = "--rebase"
		}
		if _, err := s.tryGit(dir, args...); err != nil {
			s.finishMerge(dir)
		}
		if _, err := s.tryGit(dir, "push", "-q", "origin", "main"); err == nil {
			return
		}
	}
	s.t.Fatalf("%s: could not push after 5 pulls", dir)
}

// finishMerge runs curator resolve wherever git stopped, and continues.
func (s *scenario) finishMerge(dir string) {
	for i := 0; i < 200; i++ {
		curator(s.t, dir, "resolve", "--quiet")
		if s.way == bySync || s.way == byPull {
			s.git(dir, "commit", "-q", "--no-edit")
			return
		}
		who := filepath.Base(dir)
		cmd := exec.Command("git", "rebase", "--continue")
		cmd.Dir, cmd.Env = dir, append(os.Environ(), append(testIdentity, "GIT_EDITOR=true", "GIT_AUTHOR_NAME="+who, "GIT_COMMITTER_NAME="+who)...)
		out, err := cmd.CombinedOutput()
		if err == nil {
			return
		}
		if _, err := os.Stat(filepath.Join(dir, ".git", "rebase-merge")); err != nil {
			s.t.Fatalf("%s: git rebase --continue: %s", dir, out)
		}
	}
	s.t.Fatalf("%s: the rebase never ended", dir)
}

func (s *scenario) git(dir string, args ...string) string {
	s.t.Helper()
	out, err := s.tryGit(dir, args...)
	if err != nil {
		s.t.Fatalf("git %s in %s: %v\n%s", strings.Join(args, " "), dir, err, out)
	}
	return out
}

func (s *scenario) tryGit(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	// Each clone commits as its own agent: two clones making the same
	// change on the same parent in the same second must not make one
	// and the same commit.
	who := filepath.Base(dir)
	cmd.Env = append(os.Environ(), append(testIdentity, "GIT_AUTHOR_NAME="+who, "GIT_COMMITTER_NAME="+who)...)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// check asserts what the scenario promises.
func (s *scenario) check() {
	t := s.t
	tree := s.git(s.clones[0], "rev-parse", "HEAD^{tree}")
	for _, dir := range s.clones[1:] {
		if got := s.git(dir, "rev-parse", "HEAD^{tree}"); got != tree {
			t.Errorf("%s ends with tree %s, %s with %s", dir, strings.TrimSpace(got), s.clones[0], strings.TrimSpace(tree))
		}
	}
	if got := s.git(s.remote, "rev-parse", "main^{tree}"); got != tree {
		t.Errorf("the remote ends with tree %s, the clones with %s", got, tree)
	}
	dir := s.clones[0]
	for i := 1; i <= baseBullets; i++ {
		id := fmt.Sprintf("STRAT-%03d", i)
		data, _ := os.ReadFile(s.bulletPath(dir, id))
		m := helpfulRE.FindSubmatch(data)
		if want := 1 + s.increments[id]; m == nil || string(m[1]) != strconv.Itoa(want) {
			t.Errorf("%s: helpful_count %s, want %d (1 + %d increments)", id, m, want, s.increments[id])
		}
	}
	files := map[string][]byte{}
	ids := map[string]string{}
	filepath.WalkDir(filepath.Join(dir, ".curator"), func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".md") {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		data, _ := os.ReadFile(p)
		files[rel] = data
		if !strings.Contains(rel, "/memory/") && !strings.Contains(rel, "/context/bullets/") && !strings.Contains(rel, "/context/archive/") {
			return nil
		}
		doc, err := frontmatter.Parse(data)
		if err != nil {
			t.Errorf("%s does not parse: %v", rel, err)
			return nil
		}
		var fm struct {
			ID             string         `yaml:"id"`
			MergeConflicts map[string]any `yaml:"merge_conflicts"`
		}
		if err := doc.Decode(&fm); err != nil {
			t.Errorf("%s: %v", rel, err)
		}
		if fm.MergeConflicts != nil {
			t.Errorf("%s records merge conflicts: %v", rel, fm.MergeConflicts)
		}
		kind := "memory"
		if strings.Contains(rel, "/context/") {
			kind = "bullet"
		}
		if prev, dup := ids[kind+fm.ID]; dup {
			t.Errorf("id %s is held by %s and %s", fm.ID, prev, rel)
		}
		ids[kind+fm.ID] = rel
		if bytes.Contains(data, []byte("<<<<<<<")) {
			t.Errorf("%s holds conflict markers", rel)
		}
		return nil
	})
	once := func(what, tok, under string) {
		n := 0
		for rel, data := range files {
			if strings.Contains(rel, under) && bytes.Contains(data, []byte(tok+"\n")) || strings.Contains(rel, under) && bytes.Contains(data, []byte(tok+" ")) {
				n++
			}
		}
		if n != 1 {
			t.Errorf("%s %s is in %d files, want 1", what, tok, n)
		}
	}
	for _, tok := range s.memories {
		once("memory", "body "+tok, "/memory/")
	}
	for _, tok := range s.edits {
		once("hand edit", "note "+tok, "/memory/")
	}
	for _, tok := range s.lessons {
		once("lesson", "Remember "+tok, "/context/bullets/")
	}
	// Every increment landed on the lesson its author meant, wherever
	// renumbering moved it.
	for rel, data := range files {
		m := lessonTokRE.FindSubmatch(data)
		if m == nil || !strings.Contains(rel, "/context/bullets/") {
			continue
		}
		h := helpfulRE.FindSubmatch(data)
		if want := s.lessonIncrements[string(m[1])]; h == nil || string(h[1]) != strconv.Itoa(want) {
			t.Errorf("%s (lesson %s): helpful_count %s, want %d", rel, m[1], h, want)
		}
	}
	if out, err := s.tryGit(dir, "fsck", "--strict"); err != nil {
		t.Errorf("git fsck --strict: %v\n%s", err, out)
	}
	for _, d := range s.clones {
		if out := s.git(d, "status", "--porcelain"); out != "" {
			t.Errorf("%s is not clean:\n%s", d, out)
		}
	}
	t.Logf("%s: %d memories, %d hand edits, %d lessons, increments %v, lesson increments %v", s.way, len(s.memories), len(s.edits), len(s.lessons), s.increments, s.lessonIncrements)
}

// scenarioOps is the number of steps per clone (CURATOR_SCENARIO_OPS
// overrides it when investigating).
func scenarioOps(n int) int {
	if v, err := strconv.Atoi(os.Getenv("CURATOR_SCENARIO_OPS")); err == nil {
		return v
	}
	return n
}
