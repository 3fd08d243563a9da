package dashboard

import (
	"os"
	"path/filepath"

	"github.com/curator-dev/curator/internal/durable"
	"github.com/curator-dev/curator/pipeline"
	"github.com/curator-dev/curator/storehealth"
)

// StorePageFile is where `curator dashboard` writes the store's page
// unless told, in the store's folder (git-ignored, as the caches are).
const StorePageFile = ".cache/dashboard.html"

// WriteStorePage writes the store's health page of r to the file out (its
// folder made when missing), durably, and returns the file's absolute
// path. Its links to the pipeline dashboards in pipelinesDir are relative
// to out's folder.
func WriteStorePage(r *storehealth.Report, pipelinesDir, out string) (string, error) {
	out, err := filepath.Abs(out)
	if err != nil {
		return "", err
	}
	page, err := RenderStore(StoreViewOf(r, PipelinePageFrom(pipelinesDir, filepath.Dir(out))))
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return "", err
	}
	return out, durable.WriteFile(out, page, 0o644, false)
}

// PipelinePageFrom is the address of a project's dashboard file in
// pipelinesDir from a page written in dir: relative when it can be, else
// a file:// URL.
func PipelinePageFrom(pipelinesDir, dir string) func(project string) string {
	return func(project string) string {
		file := filepath.Join(pipelinesDir, pipeline.DashboardName(project))
		if rel, err := filepath.Rel(dir, file); err == nil {
			return filepath.ToSlash(rel)
		}
		return "file://" + filepath.ToSlash(file)
	}
}
