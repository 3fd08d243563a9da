package storesync

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	git "github.com/go-git/go-git/v5"

	"github.com/curator-dev/curator/mdstore"
)

// MergeDriver is the merge driver the repository's config defines
// (merge.curator.driver), and whether git can run it. Git runs the command
// with sh from the work tree's root; when sh cannot find its program, git
// leaves the file as ours, whole, marked conflicted, without markers.
type MergeDriver struct {
	Command string // as configured ("" when none is)
	Program string // its first word, unquoted
	Found   bool   // whether the program is an executable git can find
}

// ReadMergeDriver reads the merge driver of the repository holding dir.
func ReadMergeDriver(dir string) (MergeDriver, error) {
	repo, err := git.PlainOpenWithOptions(dir, &git.PlainOpenOptions{DetectDotGit: true, EnableDotGitCommonDir: true})
	if err != nil {
		return MergeDriver{}, err
	}
	cfg, err := repo.Config()
	if err != nil {
		return MergeDriver{}, err
	}
	d := MergeDriver{Command: cfg.Raw.Section("merge").Subsection("curator").Option("driver")}
	if d.Command == "" {
		return d, nil
	}
	d.Program = firstWord(d.Command)
	root := dir
	if wt, err := repo.Worktree(); err == nil {
		root = wt.Filesystem.Root()
	}
	d.Found = runnable(d.Program, root)
	return d, nil
}

// SetMergeDriver defines the merge driver's command in the repository
// holding dir.
func SetMergeDriver(dir, command string) error {
	repo, err := git.PlainOpenWithOptions(dir, &git.PlainOpenOptions{DetectDotGit: true, EnableDotGitCommonDir: true})
	if err != nil {
		return err
	}
	cfg, err := repo.Config()
	if err != nil {
		return err
	}
	cfg.Raw.Section("merge").Subsection("curator").SetOption("driver", command)
	return repo.SetConfig(cfg)
}

// DriverCommand is the merge driver's command run by the program at path.
func DriverCommand(path string) string {
	return shellQuote(path) + strings.TrimPrefix(mdstore.MergeDriverCommand, "curator")
}

// runnable reports whether sh, started in root, finds prog.
func runnable(prog, root string) bool {
	if !strings.ContainsRune(prog, '/') {
		_, err := exec.LookPath(prog)
		return err == nil
	}
	if !filepath.IsAbs(prog) {
		prog = filepath.Join(root, prog)
	}
	fi, err := os.Stat(prog)
	return err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0
}

// firstWord is a shell command's first word without its quotes.
func firstWord(cmd string) string {
	cmd = strings.TrimSpace(cmd)
	var b strings.Builder
	for i := 0; i < len(cmd); i++ {
		switch c := cmd[i]; {
		case c == ' ' || c == '\t':
			return b.String()
		case c == '\'' || c == '"':
			j := strings.IndexByte(cmd[i+1:], c)
			if j < 0 {
				b.WriteString(cmd[i+1:])
				return b.String()
			}
			b.WriteString(cmd[i+1 : i+1+j])
			i += j + 1
		case c == '\\' && i+1 < len(cmd):
			b.WriteByte(cmd[i+1])
			i++
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}
