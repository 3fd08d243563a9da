package playbook

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"unicode/utf8"
)

// StripComments blanks the // and /* */ comments of a JSON document that
// lie outside its strings, as the context-curate procedure prints its
// example answer with them. Every comment byte but a newline becomes a
// space, so the offsets and lines of what is left do not move. A /* that
// is never closed is an error naming its line.
func StripComments(data []byte) ([]byte, error) {
	out := bytes.Clone(data)
	inString := false
	for i := 0; i < len(out); i++ {
		c := out[i]
		switch {
		case inString:
			if c == '\\' {
				i++ // the escaped byte is text, even a quote
			} else if c == '"' {
				inString = false
			}
		case c == '"':
			inString = true
		case c == '/' && i+1 < len(out) && out[i+1] == '/':
			for ; i < len(out) && out[i] != '\n'; i++ {
				out[i] = ' '
			}
		case c == '/' && i+1 < len(out) && out[i+1] == '*':
			end := bytes.Index(out[i+2:], []byte("*/"))
			if end < 0 {
				return nil, fmt.Errorf("line %d: a /* comment is never closed", lineOf(data, i))
			}
			for j := i; j < i+2+end+2; j++ {
				if out[j] != '\n' {
					out[j] = ' '
				}
			}
			i += 2 + end + 1
		}
	}
	return out, nil
}

// lineOf is the 1-based line of byte offset off.
func lineOf(data []byte, off int) int {
	return bytes.Count(data[:min(off, len(data))], []byte("\n")) + 1
}

// decodeAnswer reads a curation document, comments and all; a syntax error
// names its line. The answer is one JSON object: anything after it, or a
// byte that is not UTF-8, refuses it (JSON would read the one as the end
// and the other as U+FFFD, and lose what was meant).
func decodeAnswer(data []byte, doc *CurationDocument) error {
	if !utf8.Valid(data) {
		bad := 0
		for bad < len(data) {
			r, n := utf8.DecodeRune(data[bad:])
			if r == utf8.RuneError && n <= 1 {
				break
			}
			bad += n
		}
		return fmt.Errorf("line %d: invalid UTF-8", lineOf(data, bad))
	}
	clean, err := StripComments(data)
	if err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(clean))
	err = dec.Decode(doc)
	if err == nil {
		if _, more := dec.Token(); more != io.EOF {
			return fmt.Errorf("line %d: more after the curation document's object (an answer is one JSON object)", lineOf(clean, int(dec.InputOffset())+1))
		}
	}
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		return fmt.Errorf("line %d: %v", lineOf(clean, int(syn.Offset)), err)
	case errors.As(err, &typ):
		return fmt.Errorf("line %d: %v", lineOf(clean, int(typ.Offset)), err)
	}
	return err
}
