package playbook

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/curator-dev/curator/frontmatter"
	"github.com/curator-dev/curator/internal/refuse"
	"github.com/curator-dev/curator/internal/secrets"
	"github.com/curator-dev/curator/mdstore"
)

// ReflectRequest is a reflection to store as pending (`context reflect`,
// the add_reflection tool).
type ReflectRequest struct {
	// Name is what the reflection is called in messages (its file,
	// "stdin"); a name ending in .json reads it as JSON, and a reflection
	// without an id takes the name's stem unless FreshID.
	Name string
	Data []byte
	// FreshID gives a reflection without an id a fresh one, refl-<UTC
	// time> (text with no file name: stdin, a tool's argument).
	FreshID bool
	// Format is json or markdown when the caller says how to read the
	// text ("" the name and the text tell): a format the text
	// contradicts is refused rather than guessed around.
	Format string
	Saving Saving
}

// Check refuses an empty reflection and a format its text contradicts
// (a JSON reflection is an object, a markdown one starts with its
// frontmatter).
func (r ReflectRequest) Check() error {
	text := strings.TrimSpace(string(r.Data))
	if text == "" {
		return refuse.Requestf("%s is empty", r.Name)
	}
	isJSON := strings.HasPrefix(text, "{")
	switch r.Format {
	case "":
	case "json":
		if !isJSON {
			return refuse.Requestf("format json: the %s is not a JSON object (it does not start with {)", r.Name)
		}
	case "markdown":
		if isJSON {
			return refuse.Requestf("format markdown: the %s starts with {; a markdown reflection starts with its frontmatter (---)", r.Name)
		}
	default:
		return refuse.Requestf("format %q: want markdown or json", r.Format)
	}
	return nil
}

// readName is the name the reflection is read under: with the format's
// extension when the format is given.
func (r ReflectRequest) readName() string {
	switch r.Format {
	case "json":
		return r.Name + ".json"
	case "markdown":
		return r.Name + ".md"
	}
	return r.Name
}

// Reflect checks the reflection and stores it as pending, one commit. A
// reflection that fails its checks, holds a secret or has an id already
// stored is refused (refuse.Blocked) and nothing is stored.
func Reflect(_ context.Context, s *mdstore.Store, req ReflectRequest) (*ReflectReport, error) {
	if err := req.Check(); err != nil {
		return nil, err
	}
	r, err := CheckReflection(s, req.readName(), req.Data)
	var se *secrets.Error
	if errors.As(err, &se) {
		return nil, refuse.Blocked(fmt.Errorf("%s: %w; nothing was stored", req.Name, se))
	}
	if err != nil {
		return nil, refuse.Blocked(fmt.Errorf("%w (`curator context reflect --help` shows a whole reflection)", err))
	}
	tx, err := s.Begin(req.Saving.Tx)
	if err != nil {
		return nil, err
	}
	defer tx.Close()
	if req.FreshID && r.Unnamed {
		FreshID(s, r, s.Now())
	}
	run, rel, err := reflectionRun(s, r, req.Data, s.Now())
	var exists *ExistsError
	if errors.As(err, &exists) {
		return nil, refuse.Blocked(err)
	}
	if err != nil {
		return nil, err
	}
	commit, err := tx.Save(run, req.Saving.Save...)
	if err != nil {
		return nil, err
	}
	return &ReflectReport{Commit: commit, ID: r.ID, Lessons: len(r.Lessons), Path: rel}, nil
}

// CheckReflection parses a new reflection (file name and bytes) and checks
// it: its fields (an *mdstore.InvalidFile), every text it would commit
// against the store's secret policy (a *secrets.Error naming the field),
// and its status (a new reflection is pending). Nothing is written.
func CheckReflection(s *mdstore.Store, name string, data []byte) (*mdstore.Reflection, error) {
	r, err := mdstore.ParseReflection(name, data)
	if err != nil {
		return nil, err
	}
	if e := r.CheckSecrets(s.Secrets()); e != nil {
		return nil, e
	}
	if r.CuratorStatus != "pending" {
		return nil, fmt.Errorf("%s: curator_status: %q; a new reflection is pending", name, r.CuratorStatus)
	}
	return r, nil
}

// ExistsError is a reflection whose id the store already holds.
type ExistsError struct{ ID, Path string }

func (e *ExistsError) Error() string {
	return fmt.Sprintf("reflection %s already exists (%s)", e.ID, e.Path)
}

// reflectionRun builds the run that stores a checked reflection as pending, and
// returns it with the reflection's store path. A reflection without
// created_at is dated now (curate takes reflections in created_at order).
// An id already stored (pending or merged) is an *ExistsError. The caller
// holds the store's lock.
func reflectionRun(s *mdstore.Store, r *mdstore.Reflection, data []byte, now time.Time) (*mdstore.Run, string, error) {
	if p := storedAt(s, r.ID); p != "" {
		return nil, "", &ExistsError{ID: r.ID, Path: p}
	}
	rel := mdstore.ReflectionPath("pending", r.ID, r.JSON)
	if r.CreatedAt.IsZero() && !r.JSON {
		if d, err := frontmatter.Parse(data); err == nil && d.Set("created_at", now) == nil {
			data = d.Bytes()
		}
	}
	run := mdstore.NewRun("context reflect "+r.ID, now)
	run.Changes.Write(rel, data)
	run.Decide(fmt.Sprintf("pending reflection %s: %d lessons", r.ID, len(r.Lessons)))
	return run, rel, nil
}

// storedAt is the store path of the reflection with this id, pending or
// merged ("" when there is none).
func storedAt(s *mdstore.Store, id string) string {
	for _, st := range []string{"pending", "merged"} {
		for _, js := range []bool{false, true} {
			p := mdstore.ReflectionPath(st, id, js)
			if _, err := os.Lstat(s.Path(p)); err == nil {
				return p
			}
		}
	}
	return ""
}

// FreshID gives a reflection that carries no id of its own a fresh one:
// refl-<UTC time>, then -2, -3, … while that one is stored. It is for a
// reflection read from stdin, which has no file name to take an id from;
// the caller holds the store's lock.
func FreshID(s *mdstore.Store, r *mdstore.Reflection, now time.Time) {
	base := "refl-" + now.UTC().Format("20060102-150405")
	id := base
	for n := 2; storedAt(s, id) != ""; n++ {
		id = fmt.Sprintf("%s-%d", base, n)
	}
	r.ID = id
}
