package secrets

import (
	"regexp"
	"testing"
)

// The rules' patterns are compiled when first used: each must compile, or
// a scan would panic the first time a text holds its keyword.
func TestPatternsCompile(t *testing.T) {
	ps := []*pattern{lettersOnly, placeholders, identifier, genericNames}
	for _, r := range builtinRules {
		ps = append(ps, r.re)
		if r.harmlessName != nil {
			ps = append(ps, r.harmlessName)
		}
	}
	for _, p := range ps {
		if _, err := regexp.Compile(p.expr); err != nil {
			t.Errorf("%q: %v", p.expr, err)
		}
	}
}
