package pipelinehome

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/curator-dev/curator/mdstore"
	"github.com/curator-dev/curator/pipeline"
)

func TestStoreRun(t *testing.T) {
	at := time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)
	r := &pipeline.Report{Mode: "reconstruct", Project: "shop", Decisions: []string{"reconstructed sdd pipeline"}}
	files := []pipeline.File{
		{Name: "pipeline-state-shop.json.corrupt-1", From: "pipeline-state-shop.json", Data: []byte("{")},
		{Name: "pipeline-state-shop.json", Data: []byte("{}")},
	}
	run := storeRun(r.Summary(), r.Decisions, files, "pipelines", at)
	want := []mdstore.Change{
		{Path: "pipelines/pipeline-state-shop.json.corrupt-1", From: "pipelines/pipeline-state-shop.json", Data: []byte("{")},
		{Path: "pipelines/pipeline-state-shop.json", Data: []byte("{}")},
	}
	if !reflect.DeepEqual(run.Changes.Changes, want) {
		t.Fatalf("changes %+v", run.Changes.Changes)
	}
	if run.Commit.Summary != "pipeline shop: reconstruct" || !reflect.DeepEqual(run.Commit.Decisions, r.Decisions) ||
		!run.Commit.At.Equal(at) || run.Commit.RunID == "" {
		t.Fatalf("commit %+v", run.Commit)
	}
	if run := storeRun(r.Summary(), r.Decisions, files[1:], ".", at); run.Changes.Changes[0].Path != "pipeline-state-shop.json" {
		t.Fatalf("home at the store's root: %+v", run.Changes.Changes)
	}
}

func TestWriteHome(t *testing.T) {
	dir := t.TempDir()
	h := pipeline.Home{Dir: dir}
	os.WriteFile(filepath.Join(dir, "pipeline-state-shop.json"), []byte("{"), 0o644)
	err := writeHome(h, []pipeline.File{
		{Name: "pipeline-state-shop.json.corrupt-1", From: "pipeline-state-shop.json", Data: []byte("{")},
		{Name: "context-briefs/shop/1-spec-writer.md", Data: []byte("# brief\n")},
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "pipeline-state-shop.json")); !os.IsNotExist(err) {
		t.Errorf("moved file still there: %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "pipeline-state-shop.json.corrupt-1")); string(b) != "{" {
		t.Errorf("moved content %q", b)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "context-briefs/shop/1-spec-writer.md")); string(b) != "# brief\n" {
		t.Errorf("brief %q", b)
	}
	if err := writeHome(h, []pipeline.File{{Name: "../escape", Data: []byte("x")}}); err == nil {
		t.Error("a name outside the home was written")
	}
}
