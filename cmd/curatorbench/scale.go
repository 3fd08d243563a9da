package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"time"

	"github.com/curator-dev/curator/curate/playbook"
	"github.com/curator-dev/curator/curate/playbook/bulletid"
	"github.com/curator-dev/curator/mdstore"
)

// benchScale compares a small and a large generated playbook through the
// curator binary: `context curate` (with its commit) of one reflection of
// three lessons, and `context query --text … --limit 10`, alternating
// between the two stores, medians of --runs; then maintenance (dry run) on
// the large one. A store folder that exists already is reused (building
// 100,000 bullets takes a while), so repeated runs keep curating into it;
// --runs 0 builds the stores without curating into them.
//
//	curatorbench context --scale --large-dir /work/bench-100k
func benchScale(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("context --scale", flag.ContinueOnError)
	small := fs.Int("small", 1000, "bullets of the small playbook")
	large := fs.Int("large", 100000, "bullets of the large playbook")
	smallDir := fs.String("small-dir", "", "folder of the small store (default: a temporary folder)")
	largeDir := fs.String("large-dir", "", "folder of the large store (default: a temporary folder)")
	runs := fs.Int("runs", 5, "timed runs of each command on each store (0: only build the stores, and time maintenance)")
	maintenance := fs.Bool("maintenance", true, "also time `context curate --maintenance --dry-run` on the large store")
	source := fs.String("source", "../shared/data/appworld_online_trained_playbook.txt", "ACE playbook whose bullets seed the generator")
	bin := fs.String("curator", "", "curator binary (default: built from this module)")
	caseNumbers := fs.Bool("case-numbers", true, "give each generated bullet its own case number (without, bullets that share sentences are not kept apart by the number cap, and maintenance finds pairs)")
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
	tmp, curator, done, err := benchFolder("scale", false, *bin, stdout)
	if err != nil {
		return err
	}
	defer done()
	type store struct {
		name    string
		dir     string
		bullets int
		texts   []string
		curate  []measurement
		query   []measurement
	}
	stores := []*store{{name: "small", dir: *smallDir, bullets: *small}, {name: "large", dir: *largeDir, bullets: *large}}
	for _, st := range stores {
		if st.dir == "" {
			st.dir = filepath.Join(tmp, st.name)
		}
		t0 := time.Now()
		built, err := scaleStore(st.dir, st.bullets, seed, *caseNumbers)
		if err != nil {
			return err
		}
		st.texts = built
		fmt.Fprintf(stdout, "%s store: %s, %d bullets (ready in %v)\n", st.name, st.dir, st.bullets, time.Since(t0).Round(time.Millisecond))
		// One untimed run of each command: builds the caches (the bullet
		// index) as the first run after a clone would.
		if _, err := timeCmd(st.dir, nil, curator, "context", "stats"); err != nil {
			return err
		}
	}
	gen := newTextGen(seed, time.Now().UnixNano())
	cats := []string{"strategy", "api", "anti-pattern", "verification", "troubleshooting", "pattern", "other"}
	for run := 0; run < *runs; run++ {
		for _, st := range stores {
			refl := scaleReflection(gen, st.texts, cats, fmt.Sprintf("scale-%d-%d", time.Now().UnixNano(), run))
			file := filepath.Join(tmp, "reflection.json")
			if err := os.WriteFile(file, refl, 0o644); err != nil {
				return err
			}
			if _, err := timeCmd(st.dir, nil, curator, "context", "reflect", file); err != nil {
				return err
			}
			syncDisks()
			m, err := timeCmd(st.dir, nil, curator, "context", "curate")
			if err != nil {
				return err
			}
			st.curate = append(st.curate, m)
			text := gen.sentences[gen.rnd.Intn(len(gen.sentences))]
			q, err := timeCmd(st.dir, nil, curator, "context", "query", "--text", text, "--limit", "10")
			if err != nil {
				return err
			}
			st.query = append(st.query, q)
		}
	}
	if *runs > 0 {
		fmt.Fprintf(stdout, "%-6s %8s  %-28s %-28s\n", "store", "bullets", "curate 3 lessons + commit", "query --text --limit 10")
		for _, st := range stores {
			fmt.Fprintf(stdout, "%-6s %8d  %-28s %-28s\n", st.name, st.bullets, summary(st.curate), summary(st.query))
		}
		ratio := float64(median(stores[1].curate).Wall) / float64(median(stores[0].curate).Wall)
		fmt.Fprintf(stdout, "curate %d / %d bullets: %.2f× (target ≤ 2×); query at %d: %v (target ≤ 50ms); peak RSS of a curate at %d: %.0f MB (target ≤ 150 MB)\n",
			*large, *small, ratio, *large, median(stores[1].query).Wall.Round(time.Millisecond), *large, mb(maxRSS(stores[1].curate)))
	}
	if *maintenance {
		m, err := timeCmd(stores[1].dir, nil, curator, "context", "curate", "--maintenance", "--dry-run")
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "maintenance (dry run) at %d bullets: %v, peak RSS %.0f MB\n", *large, m.Wall.Round(time.Millisecond), mb(m.MaxRSS))
	}
	return nil
}

func summary(ms []measurement) string {
	m := median(ms)
	return fmt.Sprintf("%v (%.0f MB)", m.Wall.Round(time.Millisecond), mb(maxRSS(ms)))
}

// median is the run of median wall time.
func median(ms []measurement) measurement {
	s := append([]measurement(nil), ms...)
	sort.Slice(s, func(i, j int) bool { return s[i].Wall < s[j].Wall })
	return s[len(s)/2]
}

func maxRSS(ms []measurement) int64 {
	var m int64
	for _, x := range ms {
		m = max(m, x.MaxRSS)
	}
	return m
}

// caseNumber is the case number of a generated bullet.
var caseNumber = regexp.MustCompile(` \(case \d+\)`)

// scaleStore makes (or reuses) a store of n generated bullets, committed,
// and returns the bullets' texts as generated (the lessons repeat some).
func scaleStore(dir string, n int, seed []playbook.ImportedBullet, caseNumbers bool) ([]string, error) {
	gen := newTextGen(seed, 42)
	cats := []string{"strategy", "api", "anti-pattern", "verification", "troubleshooting", "pattern", "other"}
	texts := make([]string, n)
	for i := range texts {
		texts[i] = gen.bullet(i)
		if !caseNumbers {
			texts[i] = caseNumber.ReplaceAllString(texts[i], "")
		}
	}
	if _, err := os.Stat(filepath.Join(dir, mdstore.DirName)); err == nil {
		return texts, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	s, _, err := mdstore.Init(dir)
	if err != nil {
		return nil, err
	}
	for i, text := range texts {
		cat := cats[i%len(cats)]
		id := fmt.Sprintf("%s-%06d", bulletid.DefaultPrefixes[cat], i+1)
		doc := fmt.Sprintf("---\nid: %s\ncategory: %s\nconfidence: 0.6\npriority: 5\nhelpful_count: %d\nharmful_count: 0\nversion: 1\nis_active: true\ncreated_at: 2026-10-01T00:00:00Z\n---\n\n%s\n",
			id, cat, i%4, text)
		p := s.Path(mdstore.BulletPath(true, cat, id))
		if i < len(cats) {
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				return nil, err
			}
		}
		if err := os.WriteFile(p, []byte(doc), 0o644); err != nil {
			return nil, err
		}
	}
	if _, err := s.CommitStore(mdstore.CommitInfo{Summary: fmt.Sprintf("generated playbook of %d bullets", n), RunID: "generated", Command: "curatorbench context --scale"}); err != nil {
		return nil, err
	}
	return texts, nil
}

// scaleReflection is one reflection of three lessons: a bullet repeated,
// a bullet with a sentence more, and a new combination.
func scaleReflection(g *textGen, bullets, cats []string, id string) []byte {
	type lesson struct {
		Content    string  `json:"content"`
		Category   string  `json:"category"`
		Confidence float64 `json:"confidence"`
	}
	var ls []lesson
	for i := 0; i < 3; i++ {
		k := g.rnd.Intn(len(bullets))
		text := bullets[k]
		switch i {
		case 1:
			text += " " + g.sentences[g.rnd.Intn(len(g.sentences))]
		case 2:
			text = g.bullet(len(bullets) + g.rnd.Intn(1<<20))
		}
		ls = append(ls, lesson{text, cats[k%len(cats)], 0.8})
	}
	data, _ := json.Marshal(map[string]any{"id": id, "agent": "curatorbench", "created_at": time.Now().UTC().Format(time.RFC3339), "lessons": ls})
	return data
}
