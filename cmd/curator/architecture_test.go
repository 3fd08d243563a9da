package main

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/curator-dev/curator/"

// goPackage is what `go list -json` says of one package.
type goPackage struct {
	ImportPath string
	Dir        string
	GoFiles    []string
	Imports    []string
}

func listPackages(t *testing.T) []goPackage {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("needs the go command")
	}
	cmd := exec.Command("go", "list", "-json", "./...")
	cmd.Dir = "../.."
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	var pkgs []goPackage
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for dec.More() {
		var p goPackage
		if err := dec.Decode(&p); err != nil {
			t.Fatal(err)
		}
		p.ImportPath = strings.TrimPrefix(p.ImportPath, module)
		pkgs = append(pkgs, p)
	}
	return pkgs
}

var backticked = regexp.MustCompile("`([^`]+)`")

// architectureRows reads ARCHITECTURE.md's package table: each package
// named in a row's first column, with the packages its third column names.
func architectureRows(t *testing.T) map[string][]string {
	t.Helper()
	data, err := os.ReadFile("../../ARCHITECTURE.md")
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(data), "| package | owns | imports (ours) |")
	if !ok {
		t.Fatal("ARCHITECTURE.md has no package table")
	}
	rows := map[string][]string{}
	for _, line := range strings.Split(table, "\n")[2:] {
		if !strings.HasPrefix(line, "|") {
			break
		}
		cells := strings.Split(strings.Trim(line, "|"), " | ")
		if len(cells) != 3 {
			t.Fatalf("ARCHITECTURE.md: a row of %d cells: %s", len(cells), line)
		}
		imports := []string{}
		if strings.TrimSpace(cells[2]) != "—" {
			for _, m := range backticked.FindAllStringSubmatch(cells[2], -1) {
				imports = append(imports, m[1])
			}
		}
		slices.Sort(imports)
		for _, m := range backticked.FindAllStringSubmatch(cells[0], -1) {
			if _, twice := rows[m[1]]; twice {
				t.Errorf("ARCHITECTURE.md: %s has two rows", m[1])
			}
			rows[m[1]] = imports
		}
	}
	return rows
}

// TestArchitectureTable holds ARCHITECTURE.md's package table against the
// code: every package has its row, every row is a package, and each row
// names exactly the packages of this module that the package imports.
func TestArchitectureTable(t *testing.T) {
	rows := architectureRows(t)
	seen := map[string]bool{}
	for _, p := range listPackages(t) {
		if strings.Contains(p.ImportPath, "/testdata/") {
			continue
		}
		seen[p.ImportPath] = true
		want, ok := rows[p.ImportPath]
		if !ok {
			t.Errorf("ARCHITECTURE.md: package %s has no row", p.ImportPath)
			continue
		}
		got := []string{}
		for _, imp := range p.Imports {
			if rel, ok := strings.CutPrefix(imp, module); ok {
				got = append(got, rel)
			}
		}
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("ARCHITECTURE.md: %s imports %v, the table says %v", p.ImportPath, got, want)
		}
	}
	for name := range rows {
		if !seen[name] {
			t.Errorf("ARCHITECTURE.md: row %s is no package", name)
		}
	}
}

// readsEnvironment are the packages outside cmd/ that may read the
// environment, as ARCHITECTURE.md says and why.
var readsEnvironment = map[string]bool{
	"internal/gitcommit":   true, // git's configuration variables, as git reads them
	"storesync":            true, // the ssh agent's socket, as git's ssh does
	"curate/similar":       true, // the embeddings API key, in the variable config.yaml names
	"internal/browsertest": true, // CI: the browser tests may not be skipped there
}

// TestDomainReadsNoEnvironment checks that packages outside cmd/ read the
// environment only where ARCHITECTURE.md allows it.
func TestDomainReadsNoEnvironment(t *testing.T) {
	for _, p := range listPackages(t) {
		if strings.HasPrefix(p.ImportPath, "cmd/") || readsEnvironment[p.ImportPath] {
			continue
		}
		fset := token.NewFileSet()
		for _, name := range p.GoFiles {
			f, err := parser.ParseFile(fset, filepath.Join(p.Dir, name), nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			ast.Inspect(f, func(n ast.Node) bool {
				sel, ok := n.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				if x, ok := sel.X.(*ast.Ident); ok && x.Name == "os" &&
					(sel.Sel.Name == "Getenv" || sel.Sel.Name == "LookupEnv" || sel.Sel.Name == "Environ") {
					t.Errorf("%s: %s reads the environment (os.%s); ARCHITECTURE.md allows it only in %v",
						fset.Position(sel.Pos()), p.ImportPath, sel.Sel.Name, keys(readsEnvironment))
				}
				return true
			})
		}
	}
}

func keys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
