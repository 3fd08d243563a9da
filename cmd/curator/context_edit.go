package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"github.com/curator-dev/curator/cmd/curator/cmdutil"
	"io"
	"os"
	"path/filepath"

	"github.com/urfave/cli/v2"

	"github.com/curator-dev/curator/curate/playbook"
	"github.com/curator-dev/curator/curate/similar"
	"github.com/curator-dev/curator/mdstore"
)

func newIndex(e similar.Engine) playbook.Matcher { return similar.NewIndex(e) }

func jsonEncoder(w io.Writer) *json.Encoder {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc
}

// savePlaybookRun writes what actions did to pb, with their merge log, as
// one commit, and prints the result.
func savePlaybookRun(g globals, s *mdstore.Store, pb *playbook.Playbook, acts []playbook.Action, summary string, extra func(*mdstore.Changeset)) (string, error) {
	cs := &mdstore.Changeset{}
	if err := pb.Changes(s, cs); err != nil {
		return "", err
	}
	if extra != nil {
		extra(cs)
	}
	if cs.Empty() {
		return "", nil
	}
	runID := newRunID(pb.Now)
	lines := make([]mdstore.MergeLogLine, len(acts))
	for i, a := range acts {
		lines[i] = a.LogLine(runID, pb.Now)
	}
	cs.Write(mdstore.MergeLogPath(pb.Now, runID), mdstore.EncodeMergeLog(lines))
	return g.save(s, cs, mdstore.CommitInfo{Summary: summary, Decisions: playbook.Decisions(acts), RunID: runID, At: pb.Now})
}

func printActions(g globals, acts []playbook.Action, commit string, invalid []*mdstore.InvalidFile) error {
	if g.JSON {
		if acts == nil {
			acts = []playbook.Action{}
		}
		return g.printJSON(map[string]any{"actions": acts, "commit": commit, "invalid": cmdutil.InvalidList(invalid)})
	}
	for _, a := range acts {
		g.say("%s %s: %s\n", a.Type, a.Subject(), a.Reasoning)
	}
	if commit != "" {
		g.say("Committed %s\n", commit[:min(12, len(commit))])
	} else if len(acts) == 0 {
		g.say("Nothing to change.\n")
	}
	return nil
}

func contextApplyCommand() *cli.Command {
	return &cli.Command{
		Name:      "apply",
		Usage:     "execute a curation_actions JSON document (e.g. an LLM's answer to `context prompt`)",
		ArgsUsage: "FILE | -",
		Description: "The whole document is validated before anything is written: an unknown action, an unknown\n" +
			"or archived bullet, a merge without merged_content or a secret refuses it (exit 3).",
		Action: func(c *cli.Context) error {
			g := globalsOf(c)
			if c.NArg() == 0 {
				return cmdutil.Usagef("apply needs a file (or - for stdin)")
			}
			name, data, err := readInput(c, g)
			if err != nil {
				return err
			}
			s, unlock, err := g.openLocked()
			if err != nil {
				return err
			}
			defer unlock()
			pb, invalid, err := loadPlaybook(s, false, s.Now())
			if err != nil {
				return err
			}
			acts, err := playbook.PlanDocument(pb, data)
			if err != nil {
				return cmdutil.Blocked(fmt.Errorf("%s: %w", name, err))
			}
			// The pending reflections the answer is for (its actions'
			// reflection_id) are done: merged, so that curate and the next
			// prompt do not count their lessons a second time.
			answered, err := answeredReflections(s, acts)
			if err != nil {
				return err
			}
			commit, err := savePlaybookRun(g, s, pb, acts, fmt.Sprintf("context apply %s: %d actions", filepath.Base(name), len(acts)), func(cs *mdstore.Changeset) {
				for _, m := range answered {
					cs.Move(m.from, m.to, m.data)
				}
			})
			if err != nil {
				return err
			}
			if err := printActions(g, acts, commit, invalid); err != nil {
				return err
			}
			reportInvalid(g, invalid)
			if len(invalid) > 0 {
				return cmdutil.Skipped(len(invalid))
			}
			return nil
		},
	}
}

type reflectionMove struct {
	from, to string
	data     []byte
}

// answeredReflections returns the moves to merged/ of the pending
// reflections named by the actions' reflection_id. A reflection with a
// secret-looking lesson stays pending (it is never committed).
func answeredReflections(s *mdstore.Store, acts []playbook.Action) ([]reflectionMove, error) {
	named := map[string]bool{}
	for _, a := range acts {
		if a.ReflectionID != "" {
			named[a.ReflectionID] = true
		}
	}
	if len(named) == 0 {
		return nil, nil
	}
	pending, err := s.ListReflections("pending")
	if err != nil {
		return nil, err
	}
	var out []reflectionMove
next:
	for _, r := range pending.Reflections {
		if !named[r.ID] {
			continue
		}
		if s.Secrets().Check(r.TextFields()...) != nil {
			continue next
		}
		data, err := r.WithStatus("merged")
		if err != nil {
			return nil, fmt.Errorf("%s: %w", r.Path, err)
		}
		out = append(out, reflectionMove{r.Path, mdstore.ReflectionPath("merged", r.ID, r.JSON), data})
	}
	return out, nil
}

func contextReviewCommand() *cli.Command {
	return &cli.Command{
		Name:      "review",
		Usage:     "approve or reject a bullet awaiting validation (approve applies its pending merge proposal)",
		ArgsUsage: "approve|reject ID",
		Action: func(c *cli.Context) error {
			g := globalsOf(c)
			verb, id := c.Args().Get(0), c.Args().Get(1)
			if (verb != "approve" && verb != "reject") || id == "" || c.NArg() != 2 {
				return cmdutil.Usagef("usage: curator context review approve|reject ID")
			}
			s, unlock, err := g.openLocked()
			if err != nil {
				return err
			}
			defer unlock()
			pb, invalid, err := loadPlaybook(s, false, s.Now())
			if err != nil {
				return err
			}
			logs, _, err := s.ReadMergeLogs()
			if err != nil {
				return err
			}
			acts, err := playbook.PlanReview(pb, logs, id, verb == "approve")
			if errors.Is(err, mdstore.ErrNotFound) {
				return cmdutil.Usagef("%v", err)
			}
			if err != nil {
				return cmdutil.Blocked(err)
			}
			commit, err := savePlaybookRun(g, s, pb, acts, fmt.Sprintf("context review %s %s", verb, id), nil)
			if err != nil {
				return err
			}
			return printActions(g, acts, commit, invalid)
		},
	}
}

func contextInjectCommand() *cli.Command {
	return &cli.Command{
		Name:  "inject",
		Usage: "write the top bullets into a file between <!-- curator:begin --> and <!-- curator:end -->",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "category", Usage: "only bullets of this category"},
			&cli.IntFlag{Name: "top", Value: 20, Usage: "how many bullets"},
			&cli.StringFlag{Name: "file", Value: "CLAUDE.md", Usage: "the file to write into"},
		},
		Description: "Only the block between the markers is curator's; the rest of the file is kept byte for byte.\n" +
			"Running it again with the same playbook changes nothing. The file is written, not committed.",
		Action: func(c *cli.Context) error {
			g := globalsOf(c)
			if c.Int("top") < 1 {
				return cmdutil.Usagef("--top must be at least 1")
			}
			s, err := g.openStore()
			if err != nil {
				return err
			}
			list, err := s.ListBullets(false)
			if err != nil {
				return err
			}
			cat := ""
			if c.IsSet("category") {
				cat = playbook.NormCategory(c.String("category"))
			}
			top := playbook.TopBullets(list.Active, cat, c.Int("top"))
			file := c.String("file")
			old, err := os.ReadFile(file)
			if err != nil && !os.IsNotExist(err) {
				return err
			}
			out, err := playbook.Inject(old, playbook.InjectBlock(top, cat))
			if err != nil {
				return cmdutil.Blocked(fmt.Errorf("%s: %w", file, err))
			}
			changed := string(out) != string(old)
			if changed {
				if err := mdstore.WriteFileAtomic(file, out, 0o644); err != nil {
					return err
				}
			}
			if g.JSON {
				return g.printJSON(map[string]any{"file": file, "bullets": len(top), "changed": changed})
			}
			if changed {
				g.say("Injected %s into %s\n", cmdutil.Plural(len(top), "bullet", "bullets"), file)
			} else {
				g.say("%s is up to date (%s)\n", file, cmdutil.Plural(len(top), "bullet", "bullets"))
			}
			reportInvalid(g, list.Invalid)
			return nil
		},
	}
}

func contextImportCommand() *cli.Command {
	return &cli.Command{
		Name:      "import",
		Usage:     "import a playbook: ACE text (`[id] helpful=N harmful=N :: content` under ## SECTION) or kayba skillbook JSON",
		ArgsUsage: "FILE | -",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "format", Value: "ace", Usage: "ace or kayba"},
		},
		Description: "Each bullet gets a new id of its category (from the section heading); the original id and\n" +
			"section are kept in original_id and section. Bullets already imported (same original_id) are skipped.",
		Action: func(c *cli.Context) error {
			g := globalsOf(c)
			if c.NArg() == 0 {
				return cmdutil.Usagef("import needs a file (or - for stdin)")
			}
			name, data, err := readInput(c, g)
			if err != nil {
				return err
			}
			var in []playbook.ImportedBullet
			switch c.String("format") {
			case "ace":
				in, err = playbook.ParseACE(data)
			case "kayba":
				in, err = playbook.ParseKayba(data)
			default:
				return cmdutil.Usagef("--format %q: want ace or kayba", c.String("format"))
			}
			if err != nil {
				return cmdutil.Blocked(fmt.Errorf("%s: %w", name, err))
			}
			s, unlock, err := g.openLocked()
			if err != nil {
				return err
			}
			defer unlock()
			pb, invalid, err := loadPlaybook(s, false, s.Now())
			if err != nil {
				return err
			}
			acts, refused := playbook.PlanImport(pb, in, filepath.Base(name))
			for _, a := range acts {
				if err := pb.Do(a); err != nil {
					return err
				}
			}
			commit, err := savePlaybookRun(g, s, pb, acts, fmt.Sprintf("context import %s: %d bullets", filepath.Base(name), len(acts)), nil)
			if err != nil {
				return err
			}
			if g.JSON {
				ids := make([]string, len(acts))
				for i, a := range acts {
					ids[i] = a.BulletID
				}
				msgs := make([]string, len(refused))
				for i, e := range refused {
					msgs[i] = e.Error()
				}
				if err := g.printJSON(map[string]any{"read": len(in), "imported": len(acts), "skipped": len(in) - len(acts) - len(refused),
					"ids": ids, "refused": cmdutil.NonNil(msgs), "commit": commit}); err != nil {
					return err
				}
			} else {
				g.say("Imported %d of %d bullets from %s (%d already present)\n", len(acts), len(in), name, len(in)-len(acts)-len(refused))
				if commit != "" {
					g.say("Committed %s\n", commit[:min(12, len(commit))])
				}
			}
			for _, e := range refused {
				fmt.Fprintf(g.stderr, "curator: %v\n", e)
			}
			reportInvalid(g, invalid)
			if n := len(refused) + len(invalid); n > 0 {
				return cmdutil.Skipped(n)
			}
			return nil
		},
	}
}

func contextExportCommand() *cli.Command {
	return &cli.Command{
		Name:  "export",
		Usage: "print the active bullets as an ACE text playbook",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "format", Value: "ace", Usage: "ace"},
		},
		Action: func(c *cli.Context) error {
			g := globalsOf(c)
			if c.String("format") != "ace" {
				return cmdutil.Usagef("--format %q: want ace", c.String("format"))
			}
			s, err := g.openStore()
			if err != nil {
				return err
			}
			list, err := s.ListBullets(false)
			if err != nil {
				return err
			}
			out := playbook.ExportACE(list.Active)
			if g.JSON {
				return g.printJSON(map[string]any{"format": "ace", "bullets": len(list.Active), "text": string(out)})
			}
			if _, err := g.stdout.Write(out); err != nil {
				return err
			}
			reportInvalid(g, list.Invalid)
			if len(list.Invalid) > 0 {
				return cmdutil.Skipped(len(list.Invalid))
			}
			return nil
		},
	}
}
