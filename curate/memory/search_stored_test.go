package memory

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/curator-dev/curator/curate/similar"
	"github.com/curator-dev/curator/mdstore"
)

// TestStoredSearchAgreesWithListing holds the stored search index to a
// search of the listed files after changes made behind curator's back, on
// folders old enough to be trusted by their times: a file added, renamed,
// removed, one edited in place (seen through the result it is), one that
// cannot be read, and a damaged index (rebuilt, named in a note).
func TestStoredSearchAgreesWithListing(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for the folders' times to settle")
	}
	s, _, err := mdstore.Init(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	words := []string{"postgres", "pool", "cache", "redis", "deploy", "build", "runner", "queue"}
	write := func(i int, typ, brief string) string {
		rel := fmt.Sprintf("memory/confirmed/%s/m-%03d.md", typ, i)
		text := fmt.Sprintf("---\nid: m-%03d\ntype: %s\nstatus: confirmed\nmaturity: confirmed\nbrief: %s\nauthor: a%d\ntags: [t%d]\ningestion_time: 2026-11-%02dT09:00:00Z\n---\nBody %d.\n",
			i, typ, brief, i%3, i%4, 1+i%28, i)
		if err := os.MkdirAll(filepath.Dir(s.Path(rel)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(s.Path(rel), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return rel
	}
	types := []string{"fact", "concept", "lesson"}
	for i := range 150 {
		write(i, types[i%3], fmt.Sprintf("The %s %s uses %s after %d", words[i%8], words[(i/8)%8], words[(i/64)%8], i%13))
	}
	queries := []string{"postgres pool", "redis cache uses", "deploy the runner after 3", "queue", "nothing here", "t2"}
	index := s.Path(".cache/memory-search/confirmed")
	check := func(step string, notes ...string) {
		t.Helper()
		for _, q := range queries {
			for _, req := range []SearchRequest{{Query: q}, {Query: q, Limit: 3, Type: "fact"}, {Query: q, Author: "a1"}} {
				got, gerr := Search(t.Context(), s, NewStoredSearchIndex(s, similar.NewLexical()), req)
				want, werr := Search(t.Context(), s, NewSearchIndex(similar.NewLexical(), StoreListing(s)), req)
				if gerr != nil || werr != nil {
					t.Fatalf("%s: %q: %v / %v", step, q, gerr, werr)
				}
				if strings.Join(got.Notes, "\n") != strings.Join(notes, "\n") {
					t.Fatalf("%s: %q: notes %q, want %q", step, q, got.Notes, notes)
				}
				notes = nil // said once: the index is written again
				got.Notes = want.Notes
				g, _ := json.Marshal(got)
				w, _ := json.Marshal(want)
				if string(g) != string(w) {
					t.Fatalf("%s: %+v:\n got %s\nwant %s", step, req, g, w)
				}
			}
		}
		if _, err := os.Stat(index); err != nil {
			t.Fatalf("%s: no stored index: %v", step, err)
		}
	}
	settle := func() { time.Sleep(2100 * time.Millisecond) }
	settle()
	check("built")
	settle()
	check("trusted")

	write(150, "fact", "The postgres pool keeps idle connections for a minute")
	check("added by hand")
	if err := os.Rename(s.Path("memory/confirmed/fact/m-000.md"), s.Path("memory/confirmed/concept/m-000.md")); err != nil {
		t.Fatal(err)
	}
	check("moved by hand") // the concept folder has a fact now: still listed
	if err := os.Remove(s.Path("memory/confirmed/concept/m-001.md")); err != nil {
		t.Fatal(err)
	}
	check("removed by hand")
	settle()
	check("trusted again")
	// Edited in place, the folders' times unchanged: the result read
	// shows the change, and the search is made again checking each file.
	write(8, "lesson", "The postgres pool uses redis after a deploy")
	check("edited in place")
	if err := os.WriteFile(s.Path("memory/confirmed/fact/m-151.md"), []byte("---\nid: [m-151\n---\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	check("unreadable")
	settle()
	check("unreadable, trusted")

	data, err := os.ReadFile(index)
	if err != nil {
		t.Fatal(err)
	}
	data[len(data)/2] ^= 0xff
	if err := os.WriteFile(index, data, 0o644); err != nil {
		t.Fatal(err)
	}
	check("damaged", "memory search index .curator/.cache/memory-search/confirmed: damaged (checksum); rebuilt")
}

// TestStoredSearchEntryDamaged holds a search to the listed files when an
// entry of the stored index cannot be decoded though the file's checksum
// holds (the entries are decoded only when a search looks at them): the
// search reads every file again, says so, and writes a sound index.
func TestStoredSearchEntryDamaged(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for the folders' times to settle")
	}
	s, _, err := mdstore.Init(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	words := []string{"postgres", "pool", "cache", "redis", "deploy", "build", "runner", "queue"}
	var briefs []string
	for i := range 40 {
		brief := fmt.Sprintf("The %s %s uses %s after %d", words[i%8], words[(i/8)%8], words[(i/3)%8], i%13)
		briefs = append(briefs, brief)
		rel := fmt.Sprintf("memory/confirmed/fact/m-%03d.md", i)
		text := fmt.Sprintf("---\nid: m-%03d\ntype: fact\nstatus: confirmed\nmaturity: confirmed\nbrief: %s\nauthor: a%d\ningestion_time: 2026-11-%02dT09:00:00Z\n---\nBody %d.\n",
			i, brief, i%3, 1+i%28, i)
		if err := os.MkdirAll(filepath.Dir(s.Path(rel)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(s.Path(rel), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	reqs := []SearchRequest{{Query: "postgres pool"}, {Query: "redis", Author: "a1"}, {Query: "queue runner", Limit: 3}, {Query: "nothing at all"}}
	search := func(req SearchRequest) (*SearchReport, string) {
		t.Helper()
		got, err := Search(t.Context(), s, NewStoredSearchIndex(s, similar.NewLexical()), req)
		if err != nil {
			t.Fatal(err)
		}
		want, err := Search(t.Context(), s, NewSearchIndex(similar.NewLexical(), StoreListing(s)), req)
		if err != nil {
			t.Fatal(err)
		}
		notes := strings.Join(got.Notes, "\n")
		got.Notes = want.Notes
		g, _ := json.Marshal(got)
		w, _ := json.Marshal(want)
		if string(g) != string(w) {
			t.Fatalf("%+v:\n got %s\nwant %s", req, g, w)
		}
		return got, notes
	}
	time.Sleep(2100 * time.Millisecond) // the folders trusted by their times
	search(reqs[0])                     // writes the index
	index := s.Path(".cache/memory-search/confirmed")
	for _, req := range reqs {
		data, err := os.ReadFile(index)
		if err != nil {
			t.Fatal(err)
		}
		// Each brief's length says more than its entry holds; the
		// checksum is made again, so only decoding the entry tells.
		for _, b := range briefs {
			at := bytes.Index(data, []byte(b))
			if at < 1 || data[at-1] != byte(len(b)) {
				t.Fatalf("brief %q not found in the index", b)
			}
			data[at-1] = 0x7f
		}
		body := data[:len(data)-4]
		binary.BigEndian.PutUint32(data[len(body):], crc32.Checksum(body, crc32.MakeTable(crc32.Castagnoli)))
		if err := os.WriteFile(index, data, 0o644); err != nil {
			t.Fatal(err)
		}
		if _, notes := search(req); notes != "memory search index .curator/.cache/memory-search/confirmed: damaged (cannot be decoded); rebuilt" {
			t.Fatalf("%+v: notes %q", req, notes)
		}
		if _, notes := search(req); notes != "" {
			t.Fatalf("%+v: the index written again: notes %q", req, notes)
		}
	}
}
