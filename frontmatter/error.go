package frontmatter

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Error is a problem in a document, with the file line where it was found
// (0 when unknown).
type Error struct {
	Line int
	Msg  string
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("line %d: %s", e.Line, e.Msg)
	}
	return e.Msg
}

var yamlLineRE = regexp.MustCompile(`line (\d+): `)

// wrap turns a YAML error into an *Error whose line counts from the top of the file.
func (d *Document) wrap(err error) error {
	var te *yaml.TypeError
	msgs := []string{strings.TrimPrefix(err.Error(), "yaml: ")}
	if errors.As(err, &te) {
		msgs = te.Errors
	}
	first := &Error{}
	var parts []string
	for _, m := range msgs {
		if loc := yamlLineRE.FindStringSubmatchIndex(m); loc != nil {
			n, _ := strconv.Atoi(m[loc[2]:loc[3]])
			// yaml.v3 reports an unclosed flow collection at its 0-based
			// start line (a parser error with a context mark).
			if strings.Contains(m, "expected ',' or") {
				n++
			}
			line := n + d.yamlLine - 1
			if first.Line == 0 {
				first.Line = line
			}
			m = m[:loc[0]] + m[loc[1]:]
			if len(msgs) > 1 {
				m = fmt.Sprintf("line %d: %s", line, m)
			}
		}
		parts = append(parts, m)
	}
	first.Msg = strings.Join(parts, "; ")
	if len(msgs) > 1 {
		first.Line = 0
	}
	return first
}
