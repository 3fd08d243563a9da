package safepath

import (
	"errors"
	"strings"
	"testing"
)

func TestCheckID(t *testing.T) {
	for _, ok := range []string{"m-1", "STRAT-042", "记忆-1", "a.b"} {
		if err := CheckID(ok); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
	for _, bad := range []string{"", ".", "..", "a/b", `a\b`, "../x", "a\x00b", "a\nb", ".hidden", strings.Repeat("x", 201)} {
		if err := CheckID(bad); !errors.Is(err, ErrUnsafeID) {
			t.Errorf("%q: want ErrUnsafeID, got %v", bad, err)
		}
	}
}

func TestCheckIDInvisible(t *testing.T) {
	// An id that reads as another (spaces around it, bidi overrides,
	// invisible format characters) is refused, naming the character.
	for bad, why := range map[string]string{
		" m-1":           "starts with a space",
		"m-1 ":           "ends with a space",
		"m-1\t":          "ends with a space",
		"\u00a0m-1":      "starts with a space",
		"m-\u202e1":      "U+202E",
		"m-\u202a1":      "U+202A",
		"m-\u20661":      "U+2066",
		"m-\u2069":       "U+2069",
		"m\u200b-1":      "U+200B",
		"\ufeffm-1":      "U+FEFF",
		"m-\u00ad1":      "U+00AD",
		"m-\x7f1":        "U+007F",
		"m-\u00851":      "U+0085",
		"STRAT-\u200d01": "U+200D",
	} {
		err := CheckID(bad)
		if !errors.Is(err, ErrUnsafeID) || !strings.Contains(err.Error(), why) {
			t.Errorf("%q: want ErrUnsafeID saying %q, got %v", bad, why, err)
		}
	}
	for _, ok := range []string{"m 1", "记忆-1", "café-1", "a-b_c.d"} {
		if err := CheckID(ok); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
}
