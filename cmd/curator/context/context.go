package contextcmd

import (
	"bytes"
	"fmt"
	"io"
	"os"

	"github.com/urfave/cli/v2"

	"github.com/curator-dev/curator/cmd/curator/cmdutil"
	"github.com/curator-dev/curator/curate/playbook"
)

// NewCmd builds the `curator context` group.
func NewCmd(f *cmdutil.Factory) *cli.Command {
	return &cli.Command{
		Name:  "context",
		Usage: "the ACE playbook: reflections curated into bullets",
		Description: fmt.Sprintf("Agents store reflections (lessons learned) with `reflect`; `curate` merges them into the\n"+
			"playbook: similarity > %g reinforces a bullet, %g–%g merges into a new version <ID>-vN\n"+
			"(a proposal unless --auto-merge), < %g adds a bullet. Every run is one git commit with a\n"+
			"merge log under context/log/. See curate/CONTEXT.md for every rule.",
			playbook.DefaultThreshold, playbook.MergeFloor, playbook.DefaultThreshold, playbook.MergeFloor),
		Subcommands: []*cli.Command{
			NewCmdReflect(f, nil), NewCmdCurate(f, nil), NewCmdApply(f, nil), NewCmdPrompt(f, nil),
			NewCmdQuery(f, nil), NewCmdStats(f, nil), NewCmdReview(f, nil), NewCmdInject(f, nil),
			NewCmdImport(f, nil), NewCmdExport(f, nil), NewCmdUsed(f, nil),
		},
	}
}

// inputArg is the one file argument of a command ("" or "-" is stdin).
func inputArg(c *cli.Context) (string, error) {
	if c.NArg() > 1 {
		return "", cmdutil.Usagef("give one file (or - for stdin)")
	}
	return c.Args().First(), nil
}

// maxInput is the most a command reads of its input file or stdin: more
// is refused, never cut. (A reflection is refused past 1 MiB by its own
// check; an imported playbook and a curation answer may be larger.)
const maxInput = 1 << 30

// readInput reads a file, or stdin for "-" or "", whole, and returns the
// name to use in messages. A regular file is refused by its size before
// it is read, and read into a buffer of that size.
func readInput(env cmdutil.Env, file string) (string, []byte, error) {
	name, in, size := "stdin", env.IO.In, int64(0)
	if file != "" && file != "-" {
		f, err := os.Open(file)
		if err != nil {
			return file, nil, err
		}
		defer f.Close()
		name, in = file, f
		if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
			size = fi.Size()
		}
	}
	tooLarge := cmdutil.Blocked(fmt.Errorf("%s: more than 1 GiB, too large to read", name))
	if size > maxInput {
		return name, nil, tooLarge
	}
	buf := bytes.NewBuffer(make([]byte, 0, size+bytes.MinRead))
	if _, err := buf.ReadFrom(io.LimitReader(in, maxInput+1)); err != nil {
		return name, nil, err
	}
	if buf.Len() > maxInput {
		return name, nil, tooLarge
	}
	return name, buf.Bytes(), nil
}

// short is a commit hash as the human output shows it.
func short(commit string) string { return commit[:min(12, len(commit))] }
