package frontmatter

import (
	"errors"
	"io"
	"strings"

	"go.yaml.in/yaml/v3"
)

// ParseValue reads one YAML value, as a command line gives a key's new
// value ("3", "[a, b]", "text"). A text holding more than one YAML document
// ("a\n---\nb") is refused rather than cut to its first document; an
// empty text is null.
func ParseValue(raw string) (any, error) {
	dec := yaml.NewDecoder(strings.NewReader(raw))
	var v any
	if err := dec.Decode(&v); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, nil
		}
		return nil, err
	}
	var more any
	if err := dec.Decode(&more); !errors.Is(err, io.EOF) {
		return nil, errors.New(`the value holds more than one YAML document (a "---" line): quote it to keep the text as it is`)
	}
	return v, nil
}
