package similar

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

// fakeEmbeddings serves letter-count vectors, so texts with similar letters
// get similar vectors, and counts the requests it answers.
func fakeEmbeddings(t *testing.T, calls *atomic.Int64) *httptest.Server {
	t.Helper()
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/embeddings" || r.Method != http.MethodPost {
			http.Error(w, "not found", http.StatusNotFound)
			return
		}
		if got := r.Header.Get("Authorization"); got != "Bearer sekrit" {
			http.Error(w, "bad key "+got, http.StatusUnauthorized)
			return
		}
		var req embeddingsRequest
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.Model != "test-model" {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		calls.Add(1)
		var resp embeddingsResponse
		for i, text := range req.Input {
			v := make([]float32, 26)
			for _, c := range strings.ToLower(text) {
				if c >= 'a' && c <= 'z' {
					v[c-'a']++
				}
			}
			resp.Data = append(resp.Data, struct {
				Embedding []float32 `json:"embedding"`
				Index     int       `json:"index"`
			}{v, i})
		}
		json.NewEncoder(w).Encode(resp)
	}))
}

func embeddingsConfig(url, cache string) Config {
	return Config{Engine: "embeddings", BaseURL: url, Model: "test-model", APIKeyEnv: "CURATOR_TEST_KEY", CacheFile: cache}
}

func TestEmbeddingsScoresAndCaches(t *testing.T) {
	t.Setenv("CURATOR_TEST_KEY", "sekrit")
	var calls atomic.Int64
	srv := fakeEmbeddings(t, &calls)
	defer srv.Close()
	cache := filepath.Join(t.TempDir(), "cache", "vectors.json")

	eng, err := New(embeddingsConfig(srv.URL, cache))
	if err != nil {
		t.Fatal(err)
	}
	e := eng.(*Embeddings)
	a, b := "paginate through every page", "page through all pages"
	s := e.Score(a, b)
	if err := e.Err(); err != nil {
		t.Fatal(err)
	}
	if s <= 0.5 || s > 1 || s != e.Score(b, a) {
		t.Errorf("Score = %v (reverse %v)", s, e.Score(b, a))
	}
	if e.Score(a, a) != 1 {
		t.Error("Score(a, a) != 1")
	}
	if n := calls.Load(); n != 1 {
		t.Errorf("%d requests for two texts, want 1 (the second Score is a cache hit)", n)
	}
	if s := e.Score("Always retry the call", "Never retry the call"); s >= MergeFloor {
		t.Errorf("negated pair scores %.3f through embeddings, want < %.1f", s, MergeFloor)
	}
	if err := e.Save(); err != nil {
		t.Fatal(err)
	}

	// A new engine reads the cache file: no request for known texts.
	before := calls.Load()
	e2, err := NewEmbeddings(embeddingsConfig(srv.URL, cache))
	if err != nil {
		t.Fatal(err)
	}
	if got := e2.Score(a, b); got != s {
		t.Errorf("cached score %v, want %v", got, s)
	}
	if calls.Load() != before {
		t.Errorf("cache miss after reload: %d requests", calls.Load()-before)
	}
	entries, _ := os.ReadDir(filepath.Dir(cache))
	if len(entries) != 1 {
		t.Errorf("cache folder holds %d files, want only the cache (no temp files left)", len(entries))
	}
}

func TestEmbeddingsEndpointDown(t *testing.T) {
	var calls atomic.Int64
	srv := fakeEmbeddings(t, &calls)
	url := srv.URL
	srv.Close() // nothing listens there now

	e, err := NewEmbeddings(embeddingsConfig(url, ""))
	if err != nil {
		t.Fatal(err)
	}
	if s := e.Score("a lesson", "another lesson"); s != 0 {
		t.Errorf("Score with the endpoint down = %v, want 0", s)
	}
	if err := e.Err(); err == nil || !strings.Contains(err.Error(), url+"/v1/embeddings") {
		t.Errorf("Err() = %v, want an error naming %s", err, url)
	}

	cfg := embeddingsConfig(url, "")
	cfg.Fallback = "local"
	f, err := NewEmbeddings(cfg)
	if err != nil {
		t.Fatal(err)
	}
	a, b := "Use pagination to collect all results", "Collect all results with pagination"
	if got, want := f.Score(a, b), NewLexical().Score(a, b); got != want {
		t.Errorf("fallback Score = %v, want the lexical %v", got, want)
	}
	if f.Err() != nil || !strings.Contains(f.Name(), "lexical") {
		t.Errorf("fallback: Err() = %v, Name() = %q", f.Err(), f.Name())
	}
}

func TestEmbeddingsHTTPError(t *testing.T) {
	var calls atomic.Int64
	srv := fakeEmbeddings(t, &calls)
	defer srv.Close()
	t.Setenv("CURATOR_TEST_KEY", "wrong")
	e, err := NewEmbeddings(embeddingsConfig(srv.URL, ""))
	if err != nil {
		t.Fatal(err)
	}
	e.Score("x y", "y z")
	if err := e.Err(); err == nil || !strings.Contains(err.Error(), "HTTP 401") {
		t.Errorf("Err() = %v, want HTTP 401", err)
	}
}

func TestNewConfig(t *testing.T) {
	if e, err := New(Config{}); err != nil || e.Name() != "lexical" {
		t.Errorf("New(Config{}) = %v, %v", e, err)
	}
	for _, cfg := range []Config{
		{Engine: "magic"},
		{Engine: "embeddings"},
		{Engine: "embeddings", BaseURL: "http://127.0.0.1:1", Model: "m", Fallback: "remote"},
	} {
		if _, err := New(cfg); err == nil {
			t.Errorf("New(%+v) accepted", cfg)
		}
	}
	bad := filepath.Join(t.TempDir(), "cache.json")
	os.WriteFile(bad, []byte("{not json"), 0o644)
	if _, err := New(Config{Engine: "embeddings", BaseURL: "http://127.0.0.1:1", Model: "m", CacheFile: bad}); err == nil || !strings.Contains(err.Error(), bad) {
		t.Errorf("corrupt cache: err = %v", err)
	}
}
