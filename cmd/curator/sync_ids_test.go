package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/curator-dev/curator/frontmatter"
)

// Published ids never change. Three clones share one remote: A curates a
// lesson and publishes it; B, offline, curates another lesson under the
// same new id and reinforces it; C pulls A's lesson and reinforces it by
// hand; then B meets the remote (the ids collide), and A reinforces its own
// lesson by the id it published. Every increment must land on the lesson
// its author meant — checked by the lessons' words, not by their ids — and
// B's references to its own lesson must follow it to its new id.

func TestPublishedIDsSync(t *testing.T)   { publishedIDs(t, bySync) }
func TestPublishedIDsPull(t *testing.T)   { publishedIDs(t, byPull) }
func TestPublishedIDsRebase(t *testing.T) { publishedIDs(t, byRebase) }

func publishedIDs(t *testing.T, way mergeWay) {
	s := newSharedStore(t, way, 3)
	a, b, c := s.clones[0], s.clones[1], s.clones[2]

	alpha := s.lesson(a, "alpha", nil)
	s.meet(0)
	beta := s.lesson(b, "beta", nil) // offline: B has not seen alpha
	if alpha.id != beta.id {
		t.Fatalf("the scenario needs colliding ids: alpha %s, beta %s", alpha.id, beta.id)
	}
	// B reinforces its own lesson by the id it knows, before meeting.
	s.lesson(b, "gamma", []string{beta.id})
	s.meet(2)
	s.increment(c, alpha.id) // C reinforces A's lesson, which it pulled
	s.meet(1)                // the ids collide here
	s.meet(2)
	s.lesson(a, "delta", []string{alpha.id}) // A reinforces its own lesson
	for round := 0; round < 2; round++ {
		for i := range s.clones {
			s.meet(i)
		}
	}

	final := s.bullets(a)
	ga, gb := final.byWord("alpha"), final.byWord("beta")
	if ga == nil || gb == nil {
		t.Fatalf("a lesson is gone: alpha %v, beta %v", ga, gb)
	}
	if ga.id != alpha.id {
		t.Errorf("alpha was published as %s and now is %s: a published id changed", alpha.id, ga.id)
	}
	if gb.id == beta.id {
		t.Errorf("beta kept the id %s that alpha published first", gb.id)
	}
	if want := alpha.helpful + 2; ga.helpful != want {
		t.Errorf("alpha (%s): helpful_count %d, want %d (C's edit and A's reflection)", ga.id, ga.helpful, want)
	}
	if want := beta.helpful + 1; gb.helpful != want {
		t.Errorf("beta (%s): helpful_count %d, want %d (B's own reflection only)", gb.id, gb.helpful, want)
	}
	// B's reflection that named its lesson names it under its new id.
	refl := s.reflection(a, "gamma")
	if !strings.Contains(refl, gb.id) || strings.Contains(refl, alpha.id) {
		t.Errorf("B's reflection should name beta as %s, not %s:\n%s", gb.id, alpha.id, refl)
	}
	s.check()
}

// sharedStore is a bare remote and clones of one store.
type sharedStore struct {
	scenario
}

func newSharedStore(t *testing.T, way mergeWay, clones int) *sharedStore {
	if testing.Short() {
		t.Skip("runs real git and curator many times")
	}
	gitEnv(t)
	root := t.TempDir()
	if keep := os.Getenv("CURATOR_SCENARIO_DIR"); keep != "" {
		root = keep // kept for inspection
	}
	s := &sharedStore{scenario{t: t, way: way, remote: filepath.Join(root, "remote.git"), increments: map[string]int{}}}
	s.git(root, "init", "-q", "--bare", "-b", "main", s.remote)
	first := filepath.Join(root, "a")
	s.git(root, "init", "-q", "-b", "main", first)
	curator(t, first, "init")
	s.git(first, "remote", "add", "origin", s.remote)
	s.git(first, "push", "-q", "-u", "origin", "main")
	s.clones = append(s.clones, first)
	for i := 1; i < clones; i++ {
		dir := filepath.Join(root, string(rune('a'+i)))
		s.git(root, "clone", "-q", s.remote, dir)
		curator(t, dir, "init")
		s.clones = append(s.clones, dir)
	}
	return s
}

// lessonState is one bullet as a clone holds it.
type lessonState struct {
	id      string
	helpful int
	content string
	path    string
}

// lesson curates a reflection whose one lesson is marked by word (with
// helpful naming bullets the reflection found helpful) and returns the
// bullet the lesson became in dir.
func (s *sharedStore) lesson(dir, word string, helpful []string) *lessonState {
	s.t.Helper()
	h := ""
	if len(helpful) > 0 {
		h = "helpful_bullets: [" + strings.Join(helpful, ", ") + "]\n"
	}
	refl := fmt.Sprintf("---\nid: refl-%s\nagent: agent-%s\ntask: %s task\ncreated_at: 2026-11-20T10:00:00Z\n%slessons:\n  - content: Always %s %s.\n    category: strategy\n    confidence: 0.9\n---\nA reflection about %s.\n",
		word, filepath.Base(dir), word, h, word, lessonText[word], word)
	f := filepath.Join(s.t.TempDir(), "r.md")
	write(s.t, f, []byte(refl))
	curator(s.t, dir, "context", "reflect", f)
	curator(s.t, dir, "context", "curate", "--quiet")
	got := s.bullets(dir).byWord(word)
	if got == nil {
		s.t.Fatalf("%s: lesson %s was not curated into a bullet", dir, word)
	}
	return got
}

// lessonText keeps the lessons apart for the similarity engine.
var lessonText = map[string]string{
	"alpha": "rotate the signing keys before a release branch is cut",
	"beta":  "pin database migrations to a numbered schema file",
	"gamma": "profile memory usage when the worker pool grows past sixteen",
	"delta": "read the flaky test log twice before retrying the build",
}

// increment adds one to the helpful_count of bullet id by hand and commits.
func (s *sharedStore) increment(dir, id string) {
	s.t.Helper()
	s.scenario.increment(dir, id)
}

type bulletSet []*lessonState

func (bs bulletSet) byWord(word string) *lessonState {
	var out *lessonState
	for _, b := range bs {
		if strings.Contains(b.content, "Always "+word+" ") {
			if out != nil {
				return nil // two bullets hold it: lost identity
			}
			out = b
		}
	}
	return out
}

// bullets reads every bullet of a clone.
func (s *sharedStore) bullets(dir string) bulletSet {
	var out bulletSet
	filepath.WalkDir(filepath.Join(dir, ".curator/context"), func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".md") || !(strings.Contains(p, "/bullets/") || strings.Contains(p, "/archive/")) {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			s.t.Fatal(err)
		}
		doc, err := frontmatter.Parse(data)
		if err != nil {
			s.t.Fatalf("%s: %v", p, err)
		}
		var fm struct {
			ID      string `yaml:"id"`
			Helpful int    `yaml:"helpful_count"`
		}
		if err := doc.Decode(&fm); err != nil {
			s.t.Fatalf("%s: %v", p, err)
		}
		out = append(out, &lessonState{id: fm.ID, helpful: fm.Helpful, content: string(doc.Body()), path: p})
		return nil
	})
	return out
}

var reflIDRE = regexp.MustCompile(`(?m)^id: (.*)$`)

// reflection is the text of the reflection refl-word, wherever it is.
func (s *sharedStore) reflection(dir, word string) string {
	var out string
	filepath.WalkDir(filepath.Join(dir, ".curator/context/reflections"), func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		data, _ := os.ReadFile(p)
		if m := reflIDRE.FindSubmatch(data); m != nil && strings.Trim(string(m[1]), `"'`) == "refl-"+word {
			out = string(data)
		}
		return nil
	})
	if out == "" {
		s.t.Fatalf("%s: no reflection refl-%s", dir, word)
	}
	return out
}

// check: every clone and the remote hold one tree, git is clean.
func (s *sharedStore) check() {
	t := s.t
	tree := s.git(s.clones[0], "rev-parse", "HEAD^{tree}")
	for _, dir := range s.clones[1:] {
		if got := s.git(dir, "rev-parse", "HEAD^{tree}"); got != tree {
			t.Errorf("%s ends with tree %s, %s with %s", dir, strings.TrimSpace(got), s.clones[0], strings.TrimSpace(tree))
		}
	}
	for _, d := range s.clones {
		if out := s.git(d, "status", "--porcelain"); out != "" {
			t.Errorf("%s is not clean:\n%s", d, out)
		}
		if out, err := s.tryGit(d, "fsck", "--strict"); err != nil {
			t.Errorf("%s: git fsck --strict: %v\n%s", d, err, out)
		}
	}
}
