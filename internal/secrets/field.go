package secrets

import "fmt"

// Field is a named piece of text of a record (brief, body, tags[1], …).
type Field struct {
	Name string
	Text string
}

// Error is a secret found in a field: it names the field and the rule,
// never the secret.
type Error struct {
	Field string
	Finding
}

func (e *Error) Error() string {
	return fmt.Sprintf("%s looks like it holds a secret (%s: %s, line %d of the field); remove it, or allow it with %q on its line or in config.yaml secrets.allow",
		e.Field, e.Rule, e.What, e.Line, AllowMarker)
}

// Check returns the first secret of the fields, in field order, or nil.
func (p *Policy) Check(fields ...Field) *Error {
	for _, f := range fields {
		if fs := p.Find(f.Text); len(fs) > 0 {
			return &Error{Field: f.Name, Finding: fs[0]}
		}
	}
	return nil
}

// Strings names each element of a list field: tags[0], tags[1], ….
func Strings(name string, xs []string) []Field {
	out := make([]Field, len(xs))
	for i, x := range xs {
		out[i] = Field{Name: fmt.Sprintf("%s[%d]", name, i), Text: x}
	}
	return out
}
