package similar

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/curator-dev/curator/config"
)

// Embeddings scores texts by the cosine of their vectors from an
// OpenAI-compatible `POST {base_url}/v1/embeddings` endpoint; negative
// cosines count as 0. Vectors are cached by sha256(model, text) in memory
// and, when Config.CacheFile is set, in that file (see Save). The negation
// and number cap of the lexical engine applies here too.
//
// When the endpoint fails, Score returns 0 and Err reports the failure,
// naming the URL; with Config.Fallback "local" the engine instead switches
// to the lexical engine for the rest of the run.
type Embeddings struct {
	cfg     Config
	url     string
	apiKey  string
	client  *http.Client
	lexical *Lexical

	mu    sync.Mutex
	cache map[string][]float32
	dirty bool
	err   error // first endpoint failure
}

// NewEmbeddings returns the embeddings engine for cfg and loads its cache
// file when there is one.
func NewEmbeddings(cfg Config) (*Embeddings, error) {
	if cfg.BaseURL == "" || cfg.Model == "" {
		return nil, errors.New("similarity engine embeddings: base_url and model must be set")
	}
	if cfg.Fallback != "" && cfg.Fallback != "local" {
		return nil, fmt.Errorf("similarity fallback %q: want \"\" or \"local\"", cfg.Fallback)
	}
	timeout := time.Duration(cfg.Timeout)
	if timeout <= 0 {
		timeout = config.DefaultEmbeddingsTimeout
	}
	e := &Embeddings{
		cfg:     cfg,
		url:     strings.TrimRight(cfg.BaseURL, "/") + "/v1/embeddings",
		client:  &http.Client{Timeout: timeout},
		lexical: NewLexical(),
		cache:   map[string][]float32{},
	}
	if cfg.APIKeyEnv != "" {
		e.apiKey = os.Getenv(cfg.APIKeyEnv)
	}
	if cfg.CacheFile != "" {
		data, err := os.ReadFile(cfg.CacheFile)
		switch {
		case errors.Is(err, os.ErrNotExist):
		case err != nil:
			return nil, fmt.Errorf("reading embeddings cache: %w", err)
		default:
			if err := json.Unmarshal(data, &e.cache); err != nil {
				return nil, fmt.Errorf("reading embeddings cache %s: %w (delete the file to rebuild it)", cfg.CacheFile, err)
			}
		}
	}
	return e, nil
}

// Name implements Engine.
func (e *Embeddings) Name() string {
	if e.fellBack() {
		return "lexical (fallback: " + e.url + " unreachable)"
	}
	return "embeddings:" + e.cfg.Model
}

// Err reports the endpoint failure that made Score return 0, or nil. It is
// always nil with Fallback "local".
func (e *Embeddings) Err() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.cfg.Fallback == "local" {
		return nil
	}
	return e.err
}

func (e *Embeddings) fellBack() bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.err != nil && e.cfg.Fallback == "local"
}

// Score implements Engine.
func (e *Embeddings) Score(a, b string) float64 {
	if e.fellBack() {
		return e.lexical.Score(a, b)
	}
	if strings.TrimSpace(a) == "" || strings.TrimSpace(b) == "" {
		return 0
	}
	if a == b {
		return 1
	}
	vs, err := e.Vectors([]string{a, b})
	if err != nil {
		if e.cfg.Fallback == "local" {
			return e.lexical.Score(a, b)
		}
		return 0
	}
	s := math.Min(1, math.Max(0, cosine(vs[0], vs[1])))
	if conflict(e.lexical.analyze(a), e.lexical.analyze(b)) {
		s = math.Min(s, e.lexical.p.capBase+e.lexical.p.capSlope*s)
	}
	return s
}

func cosine(a, b []float32) float64 {
	if len(a) != len(b) {
		return 0
	}
	var dot, na, nb float64
	for i := range a {
		dot += float64(a[i]) * float64(b[i])
		na += float64(a[i]) * float64(a[i])
		nb += float64(b[i]) * float64(b[i])
	}
	if na == 0 || nb == 0 {
		return 0
	}
	return dot / math.Sqrt(na*nb)
}

func (e *Embeddings) cacheKey(text string) string {
	h := sha256.Sum256([]byte(e.cfg.Model + "\x00" + text))
	return hex.EncodeToString(h[:])
}

// Vectors returns the embedding of each text, asking the endpoint (in one
// request) only for texts not in the cache.
func (e *Embeddings) Vectors(texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	var missing []string
	var missingAt []int
	e.mu.Lock()
	for i, t := range texts {
		if v, ok := e.cache[e.cacheKey(t)]; ok {
			out[i] = v
		} else {
			missing = append(missing, t)
			missingAt = append(missingAt, i)
		}
	}
	e.mu.Unlock()
	if len(missing) == 0 {
		return out, nil
	}
	vs, err := e.fetch(missing)
	e.mu.Lock()
	defer e.mu.Unlock()
	if err != nil {
		if e.err == nil {
			e.err = err
		}
		return nil, err
	}
	for k, v := range vs {
		out[missingAt[k]] = v
		e.cache[e.cacheKey(missing[k])] = v
	}
	e.dirty = true
	return out, nil
}

type embeddingsRequest struct {
	Model string   `json:"model"`
	Input []string `json:"input"`
}

type embeddingsResponse struct {
	Data []struct {
		Embedding []float32 `json:"embedding"`
		Index     int       `json:"index"`
	} `json:"data"`
}

func (e *Embeddings) fetch(texts []string) ([][]float32, error) {
	body, err := json.Marshal(embeddingsRequest{Model: e.cfg.Model, Input: texts})
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(context.Background(), http.MethodPost, e.url, bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("embeddings endpoint %s: %w", e.url, err)
	}
	req.Header.Set("Content-Type", "application/json")
	if e.apiKey != "" {
		req.Header.Set("Authorization", "Bearer "+e.apiKey)
	}
	resp, err := e.client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("embeddings endpoint %s is unreachable: %w", e.url, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 256<<20))
	if err != nil {
		return nil, fmt.Errorf("embeddings endpoint %s: %w", e.url, err)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("embeddings endpoint %s: HTTP %d: %.200s", e.url, resp.StatusCode, data)
	}
	var r embeddingsResponse
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("embeddings endpoint %s: bad response: %w", e.url, err)
	}
	out := make([][]float32, len(texts))
	for _, d := range r.Data {
		if d.Index < 0 || d.Index >= len(texts) || len(d.Embedding) == 0 {
			return nil, fmt.Errorf("embeddings endpoint %s: bad response: index %d", e.url, d.Index)
		}
		out[d.Index] = d.Embedding
	}
	for i, v := range out {
		if v == nil {
			return nil, fmt.Errorf("embeddings endpoint %s: bad response: no vector for input %d", e.url, i)
		}
	}
	return out, nil
}

// Save writes the vector cache to Config.CacheFile when it changed: a
// temporary file in the same folder, synced, then renamed over the old one.
func (e *Embeddings) Save() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.cfg.CacheFile == "" || !e.dirty {
		return nil
	}
	data, err := json.Marshal(e.cache)
	if err != nil {
		return err
	}
	if err := writeFileAtomic(e.cfg.CacheFile, data); err != nil {
		return fmt.Errorf("writing embeddings cache: %w", err)
	}
	e.dirty = false
	return nil
}

func writeFileAtomic(path string, data []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer os.Remove(tmp) // no-op after a successful rename
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
