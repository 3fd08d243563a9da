package main

import (
	"github.com/curator-dev/curator/cmd/curator/cmdutil"
	"io"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/curator-dev/curator/curate/memory"
	"github.com/curator-dev/curator/frontmatter"
	"github.com/curator-dev/curator/internal/safepath"
	"github.com/curator-dev/curator/mdstore"
)

func memoryAddCommand() *cli.Command {
	return &cli.Command{
		Name:      "add",
		Usage:     "add a memory to the inbox and print its id",
		ArgsUsage: "[BODY | -]",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "type", Required: true, Usage: "fact, concept or lesson"},
			&cli.StringFlag{Name: "brief", Required: true, Usage: "one-line summary (its first 40 characters are the dedup key)"},
			&cli.StringFlag{Name: "author", Usage: "agent or person who wrote it"},
			&cli.StringFlag{Name: "tags", Usage: "comma-separated tags"},
			&cli.IntFlag{Name: "confidence", Value: 3, Usage: "content_confidence, 1–5"},
			&cli.Float64Flag{Name: "proximity", Usage: "importance factor in [0,1]"},
			&cli.Float64Flag{Name: "surprisal", Usage: "importance factor in [0,1]"},
			&cli.Float64Flag{Name: "entity-priority", Usage: "importance factor in [0,1]"},
			&cli.Float64Flag{Name: "unambiguity", Usage: "importance factor in [0,1]"},
			&cli.StringFlag{Name: "scenario", Usage: "lessons: the situation it applies to"},
			&cli.StringFlag{Name: "ingestion-time", Usage: "RFC 3339 time it entered the inbox (default: now)"},
			&cli.StringFlag{Name: "id", Usage: "id to use (default: generated from the time)"},
		},
		Action: func(c *cli.Context) error {
			g := globalsOf(c)
			typ := c.String("type")
			if err := cmdutil.CheckOneOf("type", typ, mdstore.MemoryTypes); err != nil {
				return err
			}
			conf := c.Int("confidence")
			if conf < 1 || conf > 5 {
				return cmdutil.Usagef("--confidence %d: want 1–5", conf)
			}
			factors := map[string]float64{}
			for _, f := range []string{"proximity", "surprisal", "entity-priority", "unambiguity"} {
				if c.IsSet(f) {
					if err := cmdutil.CheckUnit(f, c.Float64(f)); err != nil {
						return err
					}
					factors[strings.ReplaceAll(f, "-", "_")] = c.Float64(f)
				}
			}
			body := strings.Join(c.Args().Slice(), " ")
			if body == "-" {
				b, err := io.ReadAll(g.stdin)
				if err != nil {
					return err
				}
				body = string(b)
			}
			if body != "" && !strings.HasSuffix(body, "\n") {
				body += "\n"
			}
			s, err := g.openStore()
			if err != nil {
				return err
			}
			now := s.Now()
			at := now
			if v := c.String("ingestion-time"); v != "" {
				if at, err = memory.ParseTime(v); err != nil {
					return cmdutil.Usagef("--ingestion-time: %v", err)
				}
			}
			id := c.String("id")
			if id == "" {
				id = "m-" + newRunID(at)
			}
			if err := safepath.CheckID(id); err != nil {
				return cmdutil.Usagef("--id: %v", err)
			}
			kv := []frontmatter.KV{
				{Key: "id", Value: id}, {Key: "type", Value: typ}, {Key: "status", Value: "inbox"},
				{Key: "maturity", Value: "case"}, {Key: "brief", Value: c.String("brief")},
			}
			if a := c.String("author"); a != "" {
				kv = append(kv, frontmatter.KV{Key: "author", Value: a})
			}
			if t := cmdutil.SplitList(c.String("tags")); len(t) > 0 {
				kv = append(kv, frontmatter.KV{Key: "tags", Value: t})
			}
			kv = append(kv, frontmatter.KV{Key: "content_confidence", Value: conf})
			if len(factors) > 0 {
				kv = append(kv, frontmatter.KV{Key: "importance_factors", Value: orderedFactors(factors)})
			}
			kv = append(kv, frontmatter.KV{Key: "ingestion_time", Value: at.UTC()})
			if sc := c.String("scenario"); sc != "" {
				kv = append(kv, frontmatter.KV{Key: "scenario", Value: sc})
			}
			doc, err := frontmatter.New([]byte(body), kv...)
			if err != nil {
				return err
			}
			rel := mdstore.MemoryPath("inbox", typ, id)
			m, err := mdstore.ParseMemory(rel, doc.Bytes())
			if err != nil {
				return cmdutil.Blocked(err)
			}
			if err := cmdutil.RefuseSecret("memory add", s.Secrets().Check(m.TextFields()...)); err != nil {
				return err
			}
			l, err := g.lock(s)
			if err != nil {
				return err
			}
			defer l.Unlock()
			if rel := s.ExistingMemoryFile(id); rel != "" {
				return cmdutil.Usagef("memory %s already exists (%s)", id, rel)
			}
			cs := &mdstore.Changeset{}
			cs.Write(mdstore.MemoryPath("inbox", typ, id), doc.Bytes())
			commit, err := g.save(s, cs, mdstore.CommitInfo{Summary: "memory add " + id, Decisions: []string{"add " + id + ": " + c.String("brief")}, RunID: newRunID(now), At: now})
			if err != nil {
				return err
			}
			if g.JSON {
				return g.printJSON(map[string]any{"id": id, "path": mdstore.MemoryPath("inbox", typ, id), "commit": commit})
			}
			if !g.Quiet {
				g.say("%s\n", id)
			}
			return nil
		},
	}
}

// orderedFactors keeps the factors in formula order in the file.
func orderedFactors(f map[string]float64) *yamlMap {
	m := &yamlMap{}
	for _, k := range mdstore.ImportanceFactors {
		if v, ok := f[k]; ok {
			m.add(k, v)
		}
	}
	return m
}
