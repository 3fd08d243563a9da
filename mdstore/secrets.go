package mdstore

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/curator-dev/curator/frontmatter"
	"github.com/curator-dev/curator/internal/parallel"
	"github.com/curator-dev/curator/internal/secrets"
)

// ErrSecret means a run would have committed a secret; nothing was written.
var ErrSecret = errors.New("a secret would be committed")

// Secrets is the store's secret policy: the built-in rules plus
// config.yaml's secrets.allow.
func (s *Store) Secrets() *secrets.Policy { return s.Config.SecretPolicy() }

// SecretError is a secret found in a file a run was about to write, or in
// its commit message. It names the place and the rule, never the secret.
type SecretError struct {
	Path string // store-relative; "commit message" for the message
	secrets.Finding
}

func (e *SecretError) Error() string {
	return fmt.Sprintf("%v: %s:%d holds %s (%s); nothing was written", ErrSecret, e.Path, e.Line, e.What, e.Rule)
}

func (e *SecretError) Unwrap() error { return ErrSecret }

// refuseSecrets is the last guard of Save: every file a run writes (its
// bytes, and the values of its JSON or frontmatter as they decode), every
// path it names and its commit message are scanned, and one secret
// refuses the whole run before anything (even the journal) is written.
// Domain operations check their inputs first and name the field; this
// guard is what stops a secret that reached a record some other way (a
// hand edit of a stored file that a run then moves).
func (s *Store) refuseSecrets(c *Changeset, info CommitInfo) error {
	p := s.Secrets()
	errs := make([]*SecretError, len(c.Changes))
	parallel.For(len(c.Changes), func(i int) {
		ch := c.Changes[i]
		for _, name := range []string{ch.Path, ch.From} {
			if red, fs := p.Redact(name); len(fs) > 0 {
				errs[i] = &SecretError{Path: red, Finding: fs[0]}
				return
			}
		}
		if ch.Delete {
			return
		}
		if fs := p.Find(string(ch.Data)); len(fs) > 0 {
			errs[i] = &SecretError{Path: ch.Path, Finding: fs[0]}
			return
		}
		// A value written with escapes reads as the secret once decoded.
		if e := p.Check(DecodedFields(ch.Path, ch.Data)...); e != nil {
			errs[i] = &SecretError{Path: ch.Path + " (" + e.Field + ")", Finding: e.Finding}
		}
	})
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	if fs := p.Find(info.Message()); len(fs) > 0 {
		return &SecretError{Path: "commit message", Finding: fs[0]}
	}
	return nil
}

// SecretInFile is a stored record that holds a secret: invalid input, left
// where it is.
func SecretInFile(rel string, f secrets.Finding) *InvalidFile {
	return &InvalidFile{Path: rel, Line: f.Line, Msg: fmt.Sprintf("holds a secret (%s: %s); left where it is and not curated — remove it, or allow it with %q on its line or in config.yaml secrets.allow",
		f.Rule, f.What, secrets.AllowMarker)}
}

// DecodedFields are the strings of a JSON document, of each line of a JSONL
// file, or of a markdown file's frontmatter, as they read once decoded,
// named by their place (source, lessons[0].reasoning, …). Escapes
// ("\u0041", "\x41", an escaped line break) hide a secret from a scan of
// the raw bytes; the decoded values show it. Keys are fields too. Files
// without a backslash hold no escape, and yield nothing (their raw bytes
// say it all).
func DecodedFields(name string, data []byte) []secrets.Field {
	if !bytes.ContainsRune(data, '\\') {
		return nil
	}
	var out []secrets.Field
	switch {
	case strings.HasSuffix(name, ".jsonl"):
		for i, line := range bytes.Split(data, []byte("\n")) {
			var v any
			if json.Unmarshal(line, &v) == nil {
				out = appendStrings(out, fmt.Sprintf("line %d", i+1), v)
			}
		}
	case strings.HasSuffix(name, ".json") || bytes.HasPrefix(bytes.TrimSpace(data), []byte("{")):
		var v any
		if json.Unmarshal(data, &v) == nil {
			out = appendStrings(out, "", v)
		}
	default:
		d, err := frontmatter.Parse(data)
		if err != nil || !d.HasFrontmatter() {
			return nil
		}
		var v map[string]any
		if d.Decode(&v) == nil {
			out = appendStrings(out, "", v)
		}
	}
	return out
}

// appendStrings adds every string (and map key) of v, named by its place.
func appendStrings(out []secrets.Field, at string, v any) []secrets.Field {
	join := func(k string) string {
		if at == "" {
			return k
		}
		return at + "." + k
	}
	switch x := v.(type) {
	case string:
		return append(out, secrets.Field{Name: at, Text: x})
	case []any:
		for i, e := range x {
			out = appendStrings(out, fmt.Sprintf("%s[%d]", at, i), e)
		}
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			out = append(out, secrets.Field{Name: join(k), Text: k})
			out = appendStrings(out, join(k), x[k])
		}
	case map[any]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[fmt.Sprint(k)] = e
		}
		return appendStrings(out, at, m)
	}
	return out
}
