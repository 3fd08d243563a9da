package storeinit

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/curator-dev/curator/internal/refuse"
	"github.com/curator-dev/curator/mdstore"
)

// CheckOwner refuses (a request error) what is not a code owner of a
// CODEOWNERS line: a @user, an @org/team or an email address, one word.
func CheckOwner(owner string) error {
	if owner == "" || strings.ContainsAny(owner, " \t\r\n#") || !strings.Contains(owner, "@") {
		return refuse.Requestf("%q: want a code owner, @user, @org/team or an email address", owner)
	}
	return nil
}

// codeownersFile is the CODEOWNERS file of the repository at root: the one
// that exists (.github/, the root, docs/), else .github/CODEOWNERS when
// there is a .github folder, else CODEOWNERS at the root.
func codeownersFile(root string) string {
	for _, p := range []string{".github/CODEOWNERS", "CODEOWNERS", "docs/CODEOWNERS"} {
		if _, err := os.Stat(filepath.Join(root, p)); err == nil {
			return filepath.Join(root, p)
		}
	}
	if fi, err := os.Stat(filepath.Join(root, ".github")); err == nil && fi.IsDir() {
		return filepath.Join(root, ".github", "CODEOWNERS")
	}
	return filepath.Join(root, "CODEOWNERS")
}

// repoRoot is the work tree holding dir: the nearest folder up from it
// with a .git.
func repoRoot(dir string) (string, error) {
	d, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(d, ".git")); err == nil {
			return d, nil
		}
		up := filepath.Dir(d)
		if up == d {
			return "", fmt.Errorf("--codeowners: %s is not inside a git repository", dir)
		}
		d = up
	}
}

// writeCodeowners gives the store's merge log an owner in the repository's
// CODEOWNERS: one line `/<store>/context/log/ OWNER`, added unless a line
// for that path is there already. It returns the file and whether it
// changed.
func writeCodeowners(storeDir, owner string) (string, bool, error) {
	root, err := repoRoot(filepath.Dir(storeDir))
	if err != nil {
		return "", false, err
	}
	abs, err := filepath.Abs(storeDir)
	if err != nil {
		return "", false, err
	}
	if r, err := filepath.EvalSymlinks(root); err == nil {
		root = r
	}
	if a, err := filepath.EvalSymlinks(abs); err == nil {
		abs = a
	}
	rel, err := filepath.Rel(root, abs)
	if err != nil {
		return "", false, err
	}
	pattern := "/" + filepath.ToSlash(rel) + "/context/log/"
	file := codeownersFile(root)
	data, err := os.ReadFile(file)
	if err != nil && !os.IsNotExist(err) {
		return "", false, err
	}
	for _, l := range strings.Split(string(data), "\n") {
		if f := strings.Fields(l); len(f) > 0 && f[0] == pattern {
			return file, false, nil
		}
	}
	var b bytes.Buffer
	b.Write(data)
	if len(data) > 0 && !bytes.HasSuffix(data, []byte("\n")) {
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "# curator's merge log: every change to it is reviewed\n%s %s\n", pattern, owner)
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return "", false, err
	}
	return file, true, mdstore.WriteFileAtomic(file, b.Bytes(), 0o644)
}
