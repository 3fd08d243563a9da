package merge

import (
	"bytes"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
)

// lcsLength is the length of a longest common subsequence by the textbook
// table: the reference the line pairing is checked against.
func lcsLength(a, b []string) int {
	prev, cur := make([]int, len(b)+1), make([]int, len(b)+1)
	for i := range a {
		for j := range b {
			if a[i] == b[j] {
				cur[j+1] = prev[j] + 1
			} else {
				cur[j+1] = max(prev[j+1], cur[j])
			}
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// checkPairing checks that m is an edit script from a to b (paired lines
// equal, in order; the rest deleted from a or inserted from b) and returns
// the number of paired lines.
func checkPairing(t testing.TB, a, b []string, m []int) int {
	t.Helper()
	if len(m) != len(a) {
		t.Fatalf("pairing of %d lines for %d", len(m), len(a))
	}
	n, last := 0, -1
	var applied []string
	for i, j := range m {
		if j < 0 {
			continue
		}
		if j <= last || j >= len(b) || a[i] != b[j] {
			t.Fatalf("a=%q b=%q: line %d paired with %d (last %d)", a, b, i, j, last)
		}
		applied = append(applied, b[last+1:j]...) // inserted before
		applied = append(applied, a[i])
		last = j
		n++
	}
	applied = append(applied, b[last+1:]...)
	if !equal(applied, b) {
		t.Fatalf("a=%q b=%q: applying the script gives %q", a, b, applied)
	}
	return n
}

func randomLines(r *rand.Rand, n, alphabet int) []string {
	lines := make([]string, n)
	for i := range lines {
		lines[i] = string(rune('a'+r.Intn(alphabet))) + "\n"
	}
	return lines
}

// mutate copies lines with random deletions, insertions and replacements.
func mutate(r *rand.Rand, lines []string, alphabet int, rate float64) []string {
	var out []string
	for _, l := range lines {
		switch p := r.Float64(); {
		case p < rate/3:
		case p < 2*rate/3:
			out = append(out, string(rune('a'+r.Intn(alphabet)))+"\n", l)
		case p < rate:
			out = append(out, string(rune('a'+r.Intn(alphabet)))+"\n")
		default:
			out = append(out, l)
		}
	}
	return out
}

// TestMatchIsALongestPairing: on random texts with repeated lines the
// pairing is an edit script, and a longest one without the heuristics.
func TestMatchIsALongestPairing(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for n := 0; n < 3000; n++ {
		alphabet := 1 + r.Intn(6)
		a := randomLines(r, r.Intn(40), alphabet)
		var b []string
		if n%2 == 0 {
			b = randomLines(r, r.Intn(40), alphabet)
		} else {
			b = mutate(r, a, alphabet+1, 0.3)
		}
		checkLongest(t, a, b)
	}
}

// checkLongest checks that match gives an edit script and that, without its
// heuristics, the script is a shortest one.
func checkLongest(t testing.TB, a, b []string) {
	t.Helper()
	checkPairing(t, a, b, match(a, b))
	if got, want := checkPairing(t, a, b, pairLines(a, b, true)), lcsLength(a, b); got != want {
		t.Fatalf("a=%q b=%q: %d lines paired, a longest pairing has %d", a, b, got, want)
	}
}

// TestMatchNearLongestWhenCut: past its cost limit the diff splits at the
// furthest point reached; on texts that differ everywhere it still pairs
// nearly as many lines as the longest pairing.
func TestMatchNearLongestWhenCut(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	for _, alphabet := range []int{2, 4, 20} {
		a := randomLines(r, 3000, alphabet)
		b := randomLines(r, 3000, alphabet)
		got, want := checkPairing(t, a, b, match(a, b)), lcsLength(a, b)
		if float64(got) < 0.95*float64(want) {
			t.Errorf("alphabet %d: %d lines paired, a longest pairing has %d", alphabet, got, want)
		}
		t.Logf("alphabet %d: %d lines paired, a longest pairing has %d", alphabet, got, want)
	}
}

func FuzzMatch(f *testing.F) {
	f.Add([]byte("abcabba"), []byte("cbabac"))
	f.Add([]byte("aaaa"), []byte("aa"))
	f.Add([]byte(""), []byte("x"))
	f.Fuzz(func(t *testing.T, x, y []byte) {
		if len(x) > 300 || len(y) > 300 {
			return
		}
		checkLongest(t, byteLines(x), byteLines(y))
	})
}

// byteLines makes one line of each byte, from a small alphabet so that
// lines repeat.
func byteLines(x []byte) []string {
	lines := make([]string, len(x))
	for i, c := range x {
		lines[i] = string(rune('a'+c%5)) + "\n"
	}
	return lines
}

// ordinaryEdit makes three versions of a text from a base of mostly distinct
// lines with a few repeated ones, changed at places at least five lines
// apart: on one side, on both the same way, or on both differently.
func ordinaryEdit(r *rand.Rand) (base, ours, theirs string) {
	n := 10 + r.Intn(60)
	var b []string
	for i := range n {
		switch r.Intn(8) {
		case 0:
			b = append(b, "end\n")
		case 1:
			b = append(b, "begin\n")
		default:
			b = append(b, fmt.Sprintf("line %d\n", i))
		}
	}
	var o, t []string
	next := 0
	for i := 0; i <= len(b); i++ {
		var line []string
		if i < len(b) {
			line = b[i : i+1]
		}
		if i < next || r.Intn(4) != 0 {
			o, t = append(o, line...), append(t, line...)
			continue
		}
		next = i + 5
		edit := func(side string) []string {
			var fresh []string
			for k := range 1 + r.Intn(2) {
				switch {
				case r.Intn(4) == 0 && i > 0:
					fresh = append(fresh, b[i-1]) // a repeated line: an ambiguous place
				case r.Intn(5) == 0:
					fresh = append(fresh, "end\n")
				default:
					fresh = append(fresh, fmt.Sprintf("%s %d.%d\n", side, i, k))
				}
			}
			switch r.Intn(3) {
			case 0: // delete
				return nil
			case 1: // insert before
				return append(fresh, line...)
			default: // replace
				return fresh
			}
		}
		switch r.Intn(4) {
		case 0:
			o, t = append(o, edit("ours")...), append(t, line...)
		case 1:
			o, t = append(o, line...), append(t, edit("theirs")...)
		case 2:
			e := edit("both")
			o, t = append(o, e...), append(t, e...)
		default:
			o, t = append(o, edit("ours")...), append(t, edit("theirs")...)
		}
	}
	return strings.Join(b, ""), strings.Join(o, ""), strings.Join(t, "")
}

// TestTextMergeAsGit merges ordinary random edits and compares the result
// with git merge-file's. git is asked for the diff3 style, whose conflicts
// are the overlapping changes as they are (its default style trims lines
// common to both sides of a conflict, which curator keeps); the base
// section it adds is taken out.
func TestTextMergeAsGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir := t.TempDir()
	baseSection := regexp.MustCompile(`(?m)^\|\|\|\|\|\|\| base\n(?:.*\n)*?=======\n`)
	r := rand.New(rand.NewSource(3))
	for n := range 200 {
		base, ours, theirs := ordinaryEdit(r)
		files := map[string]string{"base": base, "ours": ours, "theirs": theirs}
		for name, text := range files {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		cmd := exec.Command("git", "merge-file", "-p", "--diff3", "-L", "ours", "-L", "base", "-L", "theirs", "ours", "base", "theirs")
		cmd.Dir = dir
		out, err := cmd.Output()
		if _, ok := err.(*exec.ExitError); err != nil && !ok {
			t.Fatal(err)
		}
		want := baseSection.ReplaceAll(out, []byte(markSplit+"\n"))
		got, cs := textMerge([]byte(base), []byte(ours), []byte(theirs), false)
		if !bytes.Equal(got, want) || len(cs) != cmd.ProcessState.ExitCode() {
			t.Fatalf("case %d: base\n%s\nours\n%s\ntheirs\n%s\ngot (%d conflicts)\n%s\ngit (%d conflicts)\n%s",
				n, base, ours, theirs, len(cs), got, cmd.ProcessState.ExitCode(), want)
		}
	}
}

// bigBody is a body of about n lines of 50 bytes in paragraphs, and two
// versions that change every 40th line, one change in ten on both sides.
func bigBody(n int) (base, ours, theirs []byte) {
	var b, o, t bytes.Buffer
	for i := range n {
		line := fmt.Sprintf("- note %07d: the agent learnt something here.\n", i)
		if i%10 == 9 {
			line = "\n"
		} else if i%50 == 0 {
			line = "## Notes\n"
		}
		b.WriteString(line)
		switch {
		case i%400 == 17:
			fmt.Fprintf(&o, "- note %07d: ours changed this one.\n", i)
			fmt.Fprintf(&t, "- note %07d: theirs changed this one.\n", i)
		case i%80 == 37:
			fmt.Fprintf(&o, "- note %07d: ours changed this one.\n", i)
			t.WriteString(line)
		case i%80 == 77:
			o.WriteString(line)
		case i%40 == 3:
			o.WriteString(line)
			t.WriteString(line)
			fmt.Fprintf(&t, "- note %07d: theirs added this one.\n", i)
		default:
			o.WriteString(line)
			t.WriteString(line)
		}
	}
	return b.Bytes(), o.Bytes(), t.Bytes()
}

// TestLargeBodyMergeMemory: a body's line merge allocates memory in
// proportion to the body, not to its square.
func TestLargeBodyMergeMemory(t *testing.T) {
	for _, n := range []int{10000, 100000} {
		base, ours, theirs := bigBody(n)
		size := len(base) + len(ours) + len(theirs)
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		data, cs := textMerge(base, ours, theirs, true)
		runtime.ReadMemStats(&after)
		alloc := after.TotalAlloc - before.TotalAlloc
		t.Logf("%d lines, %.1f MB in: %.1f MB allocated, %d conflicts", n, float64(size)/1e6, float64(alloc)/1e6, len(cs))
		if want := n / 400; len(cs) != want {
			t.Errorf("%d lines: %d conflicts, want %d", n, len(cs), want)
		}
		if got := bytes.Count(data, []byte("theirs added this one")); got != n/40 {
			t.Errorf("%d lines: %d of theirs' added lines kept, want %d", n, got, n/40)
		}
		if limit := uint64(20 * size); alloc > limit {
			t.Fatalf("%d lines, %d bytes in: %d bytes allocated, more than %d", n, size, alloc, limit)
		}
	}
}

// BenchmarkTextMerge merges bodies of 10,000 and 120,000 lines (0.4 and
// 5 MB) with conflicts.
func BenchmarkTextMerge(b *testing.B) {
	for _, n := range []int{10000, 120000} {
		base, ours, theirs := bigBody(n)
		b.Run(fmt.Sprintf("lines=%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(base)))
			b.ReportAllocs()
			for b.Loop() {
				textMerge(base, ours, theirs, true)
			}
		})
	}
}
