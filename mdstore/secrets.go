package mdstore

import (
	"errors"
	"fmt"

	"github.com/curator-dev/curator/internal/parallel"
	"github.com/curator-dev/curator/internal/secrets"
)

// ErrSecret means a run would have committed a secret; nothing was written.
var ErrSecret = errors.New("a secret would be committed")

// SecretsConfig is config.yaml's secrets section.
type SecretsConfig struct {
	// Allow lists regular expressions; a found secret whose value one of
	// them matches is let through (a documented example key, a test
	// fixture). A line holding "curator:allow-secret" is let through too.
	Allow []string `yaml:"allow"`
}

// Secrets is the store's secret policy: the built-in rules plus
// config.yaml's secrets.allow.
func (s *Store) Secrets() *secrets.Policy { return s.Config.SecretPolicy() }

// SecretPolicy is the policy of these settings (the built-in one when the
// config was not loaded from a file).
func (c Config) SecretPolicy() *secrets.Policy {
	if c.secrets == nil {
		return secrets.Default()
	}
	return c.secrets
}

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

// refuseSecrets is the last guard of Save: every file a run writes, every
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

// secretInFile is a stored record that holds a secret: invalid input, left
// where it is.
func secretInFile(rel string, f secrets.Finding) *InvalidFile {
	return &InvalidFile{Path: rel, Line: f.Line, Msg: fmt.Sprintf("holds a secret (%s: %s); left where it is and not curated — remove it, or allow it with %q on its line or in config.yaml secrets.allow",
		f.Rule, f.What, secrets.AllowMarker)}
}
