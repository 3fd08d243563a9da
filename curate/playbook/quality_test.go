package playbook

import "testing"

func TestNotActionable(t *testing.T) {
	cases := []struct {
		lesson string
		why    string // "" when actionable
	}{
		{"Maybe log more.", "3 words, under 4"},
		{"Be careful with things.", "only 0 specific words (at least 2)"}, {"Log more.", "2 words, under 4"},
		{"Maybe it could be better somehow, perhaps.", "only 0 specific words (at least 2)"},
		{"Perhaps we should probably log more stuff.", "only 1 specific word (at least 2)"},
		{"Maybe consider retrying the upload a few times.", "opens with a hedge (maybe) and states no condition (if, when, before, after, …)"},
		{"Maybe retry the upload when the server answers 503.", ""},
		{"Page through every result page before comparing lists.", ""},
		{"List the folder again after deleting files.", ""},
		{"Cache the access token until it expires.", ""},
		{"Use Redis pub/sub for the notification fan-out.", ""},
	}
	for _, c := range cases {
		if got := NotActionable(c.lesson); got != c.why {
			t.Errorf("NotActionable(%q) = %q, want %q", c.lesson, got, c.why)
		}
	}
}
