package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"testing"
)

// TestExampleStore runs the README's demo on a copy of examples/memory-store
// and checks the decisions a reader of the README sees.
func TestExampleStore(t *testing.T) {
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS("../../examples/memory-store")); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if code := run([]string{"curator", "--quiet", "init", dir}, nil, &out, &errb); code != 0 {
		t.Fatalf("init: %d %s", code, errb.String())
	}
	store := filepath.Join(dir, ".curator")
	out.Reset()
	code := run([]string{"curator", "--store", store, "memory", "curate", "--json",
		"--task", "记忆整理 整理范围：2026-11-29T09:00:00Z 到 2026-11-29T10:00:00Z"}, nil, &out, &errb)
	if code != 0 {
		t.Fatalf("curate: %d %s", code, errb.String())
	}
	var rep struct {
		Candidates []string
		Duplicates []struct{ ID string }
		Promoted   []struct{ ID, Channel string }
		Discarded  []struct{ ID string }
		Kept       []struct{ ID string }
		Commit     string
	}
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	ids := func(xs []struct{ ID string }) []string {
		var s []string
		for _, x := range xs {
			s = append(s, x.ID)
		}
		sort.Strings(s)
		return s
	}
	var promoted []string
	for _, p := range rep.Promoted {
		promoted = append(promoted, p.ID+"/"+p.Channel)
	}
	sort.Strings(promoted)
	check := func(what string, got []string, want ...string) {
		if len(got) != len(want) {
			t.Errorf("%s: %v, want %v", what, got, want)
			return
		}
		for i := range got {
			if got[i] != want[i] {
				t.Errorf("%s: %v, want %v", what, got, want)
				return
			}
		}
	}
	check("candidates", []string{itoa(len(rep.Candidates))}, "9")
	check("duplicates", ids(rep.Duplicates), "flaky-1")
	check("promoted", promoted, "fsnotify-dirs/C", "go-build-cache/A", "gogit-index/A", "yaml-order/A")
	check("discarded", ids(rep.Discarded), "lunch")
	check("kept", ids(rep.Kept), "flaky-1b", "flaky-2", "flaky-3")
	if rep.Commit == "" {
		t.Error("no commit")
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }
