package main

import (
	"flag"
	"fmt"
	"io"
	"math/rand"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/curator-dev/curator/curate/playbook"
	"github.com/curator-dev/curator/curate/playbook/bulletid"
	"github.com/curator-dev/curator/curate/similar"
	"github.com/curator-dev/curator/mdstore"
)

// benchContext curates generated lessons into a generated playbook on disk,
// once with the candidate index and once with the brute-force matcher, and
// reports load, index build, matching and whole-run times of each, their
// ratio, and whether both made the same decisions on a smaller sample.
//
//	curatorbench context --bullets 100000 --lessons 1000
//
// With --scale it compares a small and a large playbook instead (benchScale).
func benchContext(args []string, stdout io.Writer) error {
	for i, a := range args {
		if a == "--scale" || a == "-scale" {
			return benchScale(append(append([]string(nil), args[:i]...), args[i+1:]...), stdout)
		}
	}
	fs := flag.NewFlagSet("context", flag.ContinueOnError)
	nBullets := fs.Int("bullets", 100000, "bullets in the generated playbook")
	nLessons := fs.Int("lessons", 1000, "lessons to curate")
	sample := fs.Int("sample", 5000, "bullets of the sample on which both matchers must agree")
	bruteLessons := fs.Int("brute-lessons", 0, "lessons the brute-force run curates at full size (0 = all; fewer = extrapolated)")
	source := fs.String("source", "../shared/data/appworld_online_trained_playbook.txt", "ACE playbook whose bullets seed the generator")
	keep := fs.String("dir", "", "build the store here (default: a temporary folder, removed after)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	seedData, err := os.ReadFile(*source)
	if err != nil {
		return fmt.Errorf("source playbook: %w (pass --source)", err)
	}
	seed, err := playbook.ParseACE(seedData)
	if err != nil {
		return err
	}
	dir := *keep
	if dir == "" {
		if dir, err = os.MkdirTemp("", "curatorbench-context-"); err != nil {
			return err
		}
		defer os.RemoveAll(dir)
	}
	s, _, err := mdstore.Init(dir)
	if err != nil {
		return err
	}
	gen := newTextGen(seed, 42)
	t0 := time.Now()
	cats := []string{"strategy", "api", "anti-pattern", "verification", "troubleshooting", "pattern", "other"}
	bulletTexts := make([]string, *nBullets)
	for i := range bulletTexts {
		bulletTexts[i] = gen.bullet(i)
		cat := cats[i%len(cats)]
		id := fmt.Sprintf("%s-%06d", bulletid.DefaultPrefixes[cat], i+1)
		doc := fmt.Sprintf("---\nid: %s\ncategory: %s\nconfidence: 0.6\npriority: 5\nhelpful_count: %d\nharmful_count: 0\nversion: 1\nis_active: true\ncreated_at: 2026-10-01T00:00:00Z\n---\n\n%s\n",
			id, cat, i%4, bulletTexts[i])
		p := s.Path(mdstore.BulletPath(true, cat, id))
		if i < len(cats) {
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				return err
			}
		}
		if err := os.WriteFile(p, []byte(doc), 0o644); err != nil {
			return err
		}
	}
	refls := gen.reflections(bulletTexts, cats, *nLessons)
	fmt.Fprintf(stdout, "curatorbench context: %d bullets, %d lessons (generated in %v)\n", *nBullets, *nLessons, time.Since(t0).Round(time.Millisecond))

	set := playbook.DefaultSettings()
	set.AutoMerge = true
	now := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	engine := similar.NewLexical()

	// Same decisions on a sample.
	list, err := s.ListBullets(true)
	if err != nil {
		return err
	}
	if *sample > len(list.Active) {
		*sample = len(list.Active)
	}
	sub := list.Active[:*sample]
	sampleRefls := newTextGen(seed, 43).reflections(bulletTexts[:*sample], cats, *nLessons)
	var decisions [2][]string
	for k, m := range []func() playbook.Matcher{
		func() playbook.Matcher { return similar.NewIndex(engine) },
		func() playbook.Matcher { return similar.NewBruteForce(engine) },
	} {
		pb := playbook.New(sub, bulletid.NewAllocator(nil), m, now)
		plan, err := playbook.PlanCuration(pb, sampleRefls, set)
		if err != nil {
			return err
		}
		for _, a := range plan.Actions {
			sim := ""
			if a.Type != playbook.ActNewBullet {
				sim = fmt.Sprintf("%.9f", a.Similarity)
			}
			decisions[k] = append(decisions[k], fmt.Sprintf("%s %s %s %v %s", a.Type, a.BulletID, a.TargetBulletID, a.MergedFrom, sim))
		}
	}
	same := strings.Join(decisions[0], "\n") == strings.Join(decisions[1], "\n")
	counts := map[string]int{}
	for _, d := range decisions[0] {
		counts[strings.Fields(d)[0]]++
	}
	fmt.Fprintf(stdout, "sample of %d bullets: identical decisions: %v (%d decisions: %v)\n", *sample, same, len(decisions[0]), counts)
	if !same {
		for i := range decisions[0] {
			if i < len(decisions[1]) && decisions[0][i] != decisions[1][i] {
				fmt.Fprintf(stdout, "  first difference: index %q, brute force %q\n", decisions[0][i], decisions[1][i])
				break
			}
		}
	}

	type result struct {
		load, build, match, plan, whole time.Duration
		lessons                         int
	}
	runOnce := func(brute bool, lessons int) (result, error) {
		var r result
		runtime.GC()
		start := time.Now()
		var spent time.Duration
		newMatcher := func() playbook.Matcher {
			if brute {
				return &timedMatcher{m: similar.NewBruteForce(engine), d: &spent}
			}
			return &timedMatcher{m: similar.NewIndex(engine), d: &spent}
		}
		pb, _, err := playbook.Load(s, nil, now)
		if err != nil {
			return r, err
		}
		r.load = time.Since(start)
		b0 := time.Now()
		pb.UseMatcher(newMatcher)
		r.build = time.Since(b0)
		spent = 0
		p0 := time.Now()
		rs := limitLessons(refls, lessons)
		if _, err := playbook.PlanCuration(pb, rs, set); err != nil {
			return r, err
		}
		cs := &mdstore.Changeset{}
		if err := pb.Changes(s, cs); err != nil {
			return r, err
		}
		r.plan = time.Since(p0)
		r.match = spent
		r.whole = time.Since(start)
		r.lessons = lessons
		return r, nil
	}
	ix, err := runOnce(false, *nLessons)
	if err != nil {
		return err
	}
	bl := *nLessons
	if *bruteLessons > 0 && *bruteLessons < bl {
		bl = *bruteLessons
	}
	bf, err := runOnce(true, bl)
	if err != nil {
		return err
	}
	scale := float64(*nLessons) / float64(bf.lessons)
	bfMatch := time.Duration(float64(bf.match) * scale)
	fmt.Fprintf(stdout, "%-12s %10s %12s %12s %12s %12s\n", "matcher", "load", "index build", "matching", "plan+apply", "whole run")
	fmt.Fprintf(stdout, "%-12s %10v %12v %12v %12v %12v\n", "index", ix.load.Round(time.Millisecond), ix.build.Round(time.Millisecond),
		ix.match.Round(time.Millisecond), ix.plan.Round(time.Millisecond), ix.whole.Round(time.Millisecond))
	note := ""
	if bf.lessons != *nLessons {
		note = fmt.Sprintf("   (measured on %d lessons, matching ×%.0f extrapolated)", bf.lessons, scale)
	}
	bfPlan := bf.plan - bf.match + bfMatch
	fmt.Fprintf(stdout, "%-12s %10v %12v %12v %12v %12v%s\n", "brute force", bf.load.Round(time.Millisecond), bf.build.Round(time.Millisecond),
		bfMatch.Round(time.Millisecond), bfPlan.Round(time.Millisecond), (bf.load + bf.build + bfPlan).Round(time.Millisecond), note)
	fmt.Fprintf(stdout, "matching time, brute force / index: %.1f×   (index matching %.3f ms per lesson)\n",
		float64(bfMatch)/float64(max(ix.match, 1)), float64(ix.match.Microseconds())/1000/float64(*nLessons))
	if !same {
		return fmt.Errorf("the index and brute force disagree on the sample")
	}
	return nil
}

// timedMatcher adds up the time spent in a matcher's queries.
type timedMatcher struct {
	m playbook.Matcher
	d *time.Duration
}

func (t *timedMatcher) Add(id, text string) {
	s := time.Now()
	t.m.Add(id, text)
	*t.d += time.Since(s)
}
func (t *timedMatcher) Remove(id string) { s := time.Now(); t.m.Remove(id); *t.d += time.Since(s) }
func (t *timedMatcher) Best(text string, f func(string) bool) (similar.Match, bool) {
	s := time.Now()
	defer func() { *t.d += time.Since(s) }()
	return t.m.Best(text, f)
}
func (t *timedMatcher) Above(text string, min float64, f func(string) bool) []similar.Match {
	s := time.Now()
	defer func() { *t.d += time.Since(s) }()
	return t.m.Above(text, min, f)
}
func (t *timedMatcher) Pairs(min float64) []similar.Pair {
	s := time.Now()
	defer func() { *t.d += time.Since(s) }()
	return t.m.Pairs(min)
}

func limitLessons(rs []*mdstore.Reflection, n int) []*mdstore.Reflection {
	var out []*mdstore.Reflection
	for _, r := range rs {
		if n <= 0 {
			break
		}
		c := *r
		if len(c.Lessons) > n {
			c.Lessons = c.Lessons[:n]
		}
		n -= len(c.Lessons)
		out = append(out, &c)
	}
	return out
}

// textGen makes bullet and lesson texts from real playbook bullets:
// sentences recombined, with a task-specific subject so texts differ.
type textGen struct {
	rnd       *rand.Rand
	sentences []string
	subjects  []string
}

func newTextGen(seed []playbook.ImportedBullet, s int64) *textGen {
	g := &textGen{rnd: rand.New(rand.NewSource(s))}
	for _, b := range seed {
		g.sentences = append(g.sentences, playbook.Sentences(b.Content)...)
	}
	g.subjects = strings.Fields("invoices playlists contacts calendars receipts podcasts tickets expenses reminders albums notes payments alarms recipes flights orders reviews messages folders subscriptions")
	return g
}

func (g *textGen) bullet(i int) string {
	a := g.sentences[g.rnd.Intn(len(g.sentences))]
	b := g.sentences[g.rnd.Intn(len(g.sentences))]
	subj := g.subjects[i%len(g.subjects)]
	return fmt.Sprintf("For %s tasks (case %d): %s %s", subj, i, a, b)
}

// reflections: a third repeat a bullet (reinforce), a third rephrase one
// by adding a sentence (merge or reinforce), a third are new combinations.
func (g *textGen) reflections(bullets, cats []string, n int) []*mdstore.Reflection {
	var out []*mdstore.Reflection
	conf := 0.8
	for i := 0; i < n; i++ {
		if i%10 == 0 {
			out = append(out, &mdstore.Reflection{ID: fmt.Sprintf("bench-%04d", i/10), CuratorStatus: "pending",
				CreatedAt: time.Date(2026, 11, 1, 0, 0, i, 0, time.UTC)})
		}
		k := g.rnd.Intn(len(bullets))
		var text string
		switch i % 3 {
		case 0:
			text = bullets[k]
		case 1:
			text = bullets[k] + " " + g.sentences[g.rnd.Intn(len(g.sentences))]
		default:
			text = g.bullet(len(bullets) + i)
		}
		r := out[len(out)-1]
		r.Lessons = append(r.Lessons, mdstore.Lesson{Content: text, Category: cats[k%len(cats)], Confidence: &conf})
	}
	return out
}
