package frontmatter

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// parserReading is the root mapping the YAML parser makes of y, or false
// when it makes none.
func parserReading(y []byte) (*yaml.Node, bool) {
	var n yaml.Node
	if err := yaml.Unmarshal(y, &n); err != nil {
		return nil, false
	}
	if n.Kind != yaml.DocumentNode || len(n.Content) != 1 || n.Content[0].Kind != yaml.MappingNode {
		return nil, false
	}
	return n.Content[0], true
}

// sameNode reports where two nodes differ, or "" when they do not.
func sameNode(a, b *yaml.Node, at string) string {
	if a.Kind != b.Kind || a.Style != b.Style || a.Tag != b.Tag || a.Value != b.Value ||
		a.Anchor != b.Anchor || a.Alias != b.Alias || (a.Content == nil) != (b.Content == nil) || a.Line != b.Line || a.Column != b.Column ||
		a.HeadComment != b.HeadComment || a.LineComment != b.LineComment || a.FootComment != b.FootComment ||
		len(a.Content) != len(b.Content) {
		return fmt.Sprintf("%s: %+v, the parser %+v", at, *a, *b)
	}
	for i := range a.Content {
		if d := sameNode(a.Content[i], b.Content[i], fmt.Sprintf("%s/%d", at, i)); d != "" {
			return d
		}
	}
	return ""
}

// checkPlain fails when plainYAML reads y otherwise than the parser; it
// reports whether plainYAML read it.
func checkPlain(t testing.TB, y []byte) bool {
	t.Helper()
	got, ok := plainYAML(y)
	if !ok {
		return false
	}
	want, pok := parserReading(y)
	if !pok {
		t.Fatalf("plainYAML read what the parser refuses:\n%s", y)
	}
	if d := sameNode(got, want, ""); d != "" {
		t.Fatalf("plainYAML read otherwise than the parser %s\n%s", d, y)
	}
	return true
}

// trickyScalars are values at the edges of what a plain scalar is and of
// how YAML tags one.
var trickyScalars = []string{
	"fact", "go-git Worktree.Add and Status scan the whole work tree", "0.8", "4", "-5", "-0.5", "+5",
	"0x1F", "0o17", "1_000", "1e3", "1e999", ".5", ".inf", "-.inf", ".nan", "true", "True", "TRUE", "false",
	"yes", "no", "on", "off", "y", "n", "null", "Null", "~", "2026-11-29T09:12:00Z", "2026-13-45T99:99:99Z", "2026-02-30T10:00:00Z", "2026-11-29T09:12:00+01:00", "12.50", "007", "1.5.2", "123456789012345678", "1234567890123456789", "2026-11-29",
	"2026-11-29 09:12:00", "12:30", "1:2:3", "http://example.com/a?b=c#d", "a: b", "a:b", "a :b", "a #b",
	"a#b", "#a", "a:", "x -", "- x", "-x", "-", "--", "---", "...", "? x", "?x", ":x", ",x", "x,y", "[a]",
	"[]", "{}", "{a: 1}", "a]", "a}", "&a", "*a", "!a", "!!str a", "|", ">", "'q'", "\"q\"", "q'", "q\"",
	"%x", "@x", "`x", "\"a: b #c\"", "'it''s'", "'a\"b'", "\"a\\\"b\"", "\"x\" y", "\"\"", "''", "\"é\u2028\"", "'x", "\"x", "<<", "<x", "a  b", "a ", " a", "é", "caf\u00e9 au lait", "\u00a0x", "x\u00a0",
	"a\u2028b", "a\u0085b", "a\ufeffb", "a\u0000b", "a\u007fb", "a\u0001b", "emoji \U0001F600", "\xff\xfe",
	"a\tb", "a\rb", "=", "a=b", "0", "00", "08", "0b101", "+.inf", "1.0e+3", "-1_000", "0.", ".", "_",
}

var trickyKeys = []string{
	"id", "type", "brief", "tags", "importance_factors", "proximity", "helpful_count", "x-y", "_a",
	"true", "null", "y", "on", "No", "a.b", "1", "a b", "a:b", "<<", "~", "-a", "é",
}

// genYAML writes a random frontmatter of the kinds plainYAML reads and of
// near misses.
func genYAML(rnd *rand.Rand, depth, indent int, b *strings.Builder) {
	pad := strings.Repeat(" ", indent)
	for k := 0; k < 1+rnd.Intn(5); k++ {
		key := trickyKeys[rnd.Intn(len(trickyKeys))]
		if rnd.Intn(3) > 0 {
			key = fmt.Sprintf("k%d_%d", depth, k)
		}
		switch r := rnd.Intn(10); {
		case r < 5 || depth > 2:
			fmt.Fprintf(b, "%s%s:%s%s\n", pad, key, strings.Repeat(" ", 1+rnd.Intn(2)), trickyScalars[rnd.Intn(len(trickyScalars))])
		case r < 7:
			fmt.Fprintf(b, "%s%s:\n", pad, key)
			entry := pad + strings.Repeat(" ", 2*rnd.Intn(2))
			for range 1 + rnd.Intn(3) {
				fmt.Fprintf(b, "%s- %s\n", entry, trickyScalars[rnd.Intn(len(trickyScalars))])
			}
		case r < 9:
			fmt.Fprintf(b, "%s%s:\n", pad, key)
			genYAML(rnd, depth+1, indent+2+2*rnd.Intn(2), b)
		default:
			fmt.Fprintf(b, "%s%s: %s\n", pad, key, []string{"[]", "{}", "[ ]", "[a]"}[rnd.Intn(4)])
		}
	}
}

// mutate spoils a frontmatter now and then the way hands do.
func mutate(rnd *rand.Rand, y string) string {
	lines := strings.SplitAfter(y, "\n")
	i := rnd.Intn(len(lines))
	switch rnd.Intn(8) {
	case 0:
		lines[i] = " " + lines[i]
	case 1:
		lines[i] = strings.Replace(lines[i], "\n", " \n", 1)
	case 2:
		lines = append(lines[:i], append([]string{"\n"}, lines[i:]...)...)
	case 3:
		lines = append(lines[:i], append([]string{"# note\n"}, lines[i:]...)...)
	case 4:
		lines[i] = strings.Replace(lines[i], "\n", " # note\n", 1)
	case 5:
		lines[i] = strings.TrimPrefix(lines[i], "  ")
	case 6:
		lines[i] = "  " + lines[i]
	default:
		lines = append(lines, lines[i]) // a key given twice, maybe
	}
	return strings.Join(lines, "")
}

func TestPlainIsTheParsersReading(t *testing.T) {
	rnd := rand.New(rand.NewSource(7))
	read := 0
	const n = 30000
	for i := range n {
		var b strings.Builder
		genYAML(rnd, 0, 0, &b)
		y := b.String()
		if i%3 == 0 {
			y = mutate(rnd, y)
		}
		if checkPlain(t, []byte(y)) {
			read++
		}
	}
	// the test says nothing when plainYAML reads nothing
	if read < n/20 {
		t.Fatalf("plainYAML read %d of %d frontmatters", read, n)
	}
	t.Logf("plainYAML read %d of %d frontmatters; the parser the rest", read, n)
}

// TestPlainReadsWhatCuratorWrites: every record curator writes, and the
// bundled examples, are read without the parser, as the parser reads
// them.
func TestPlainReadsWhatCuratorWrites(t *testing.T) {
	d, err := New([]byte("body\n"),
		KV{"id", "gogit-index"}, KV{"type", "fact"}, KV{"brief", "go-git Worktree.Add and Status scan the whole work tree"},
		KV{"tags", []string{"go-git", "performance"}}, KV{"none", []string{}},
		KV{"importance_factors", map[string]float64{"proximity": 0.8, "surprisal": 0.95}},
		KV{"content_confidence", 4}, KV{"helpful", true},
		KV{"observation", map[string]any{"outcome": "pending", "window_days": 7, "started_at": "2026-11-29T09:12:00Z"}})
	if err != nil {
		t.Fatal(err)
	}
	if !checkPlain(t, d.yaml) {
		t.Fatalf("plainYAML did not read what curator writes:\n%s", d.yaml)
	}
	files := 0
	err = filepath.Walk("../examples", func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() || !strings.HasSuffix(p, ".md") || !strings.Contains(p, ".curator") {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		d, err := Split(data)
		if err != nil || !d.HasFrontmatter() {
			return nil
		}
		files++
		if !checkPlain(t, d.yaml) {
			t.Errorf("%s: plainYAML did not read it:\n%s", p, d.yaml)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files == 0 {
		t.Fatal("no example records found")
	}
}

func FuzzPlainIsTheParsersReading(f *testing.F) {
	rnd := rand.New(rand.NewSource(1))
	for range 50 {
		var b strings.Builder
		genYAML(rnd, 0, 0, &b)
		f.Add(b.String())
	}
	f.Fuzz(func(t *testing.T, y string) {
		checkPlain(t, []byte(y))
	})
}

// BenchmarkParseRecord: a memory record as curator writes it, read by
// plainYAML and by the parser.
func BenchmarkParseRecord(b *testing.B) {
	data, err := os.ReadFile("../examples/memory-store/.curator/memory/inbox/gogit-index.md")
	if err != nil {
		b.Fatal(err)
	}
	d, err := Split(data)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("plain", func(b *testing.B) {
		for b.Loop() {
			if _, ok := plainYAML(d.yaml); !ok {
				b.Fatal("not read")
			}
		}
	})
	b.Run("parser", func(b *testing.B) {
		for b.Loop() {
			if _, ok := parserReading(d.yaml); !ok {
				b.Fatal("not read")
			}
		}
	})
}

// TestPlainRefusesEarlyCheaply: a long text refused on its first lines
// allocates little, not nodes for every line it has.
func TestPlainRefusesEarlyCheaply(t *testing.T) {
	for _, y := range []string{"#" + strings.Repeat("\n", 65000), "a: b\n" + strings.Repeat("\n", 60000)} {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		if _, ok := plainYAML([]byte(y)); ok {
			t.Fatalf("plainYAML read %q", y[:8])
		}
		runtime.ReadMemStats(&after)
		// the text's own copy, and a chunk of nodes
		if got := after.TotalAlloc - before.TotalAlloc; got > uint64(len(y))+64<<10 {
			t.Errorf("refusing %q… allocated %d bytes", y[:4], got)
		}
	}
}
