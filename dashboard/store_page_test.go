package dashboard

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The store's page is written where asked, its folder made, and links to
// the pipeline dashboards relative to it.
func TestWriteStorePage(t *testing.T) {
	store := t.TempDir()
	out, err := WriteStorePage(storeReport(), filepath.Join(store, "pipelines"), filepath.Join(store, StorePageFile))
	if err != nil {
		t.Fatal(err)
	}
	if out != filepath.Join(store, ".cache", "dashboard.html") {
		t.Errorf("written to %s", out)
	}
	page, err := os.ReadFile(out)
	if err != nil || !strings.Contains(string(page), `href="../pipelines/dashboard-shop.html"`) {
		t.Errorf("the page does not link ../pipelines/dashboard-shop.html (%v)", err)
	}
}
