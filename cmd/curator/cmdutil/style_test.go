package cmdutil

import "testing"

func TestStyleMarks(t *testing.T) {
	term, pipe, noColor := Style{Color: true, Symbols: true}, Style{}, Style{Symbols: true}
	for _, tc := range []struct {
		st     Style
		status string
		want   string
	}{
		{term, StatusOK, "✅"},
		{term, StatusBlocked, "❌"},
		{noColor, StatusWarning, "⚠️ "},
		{pipe, StatusOK, "ok"},
		{pipe, StatusBlocked, "blocked"},
		{pipe, StatusWarning, "warning:"},
		{Style{Color: true}, StatusBlocked, "\x1b[31mblocked\x1b[0m"},
	} {
		if got := tc.st.Mark(tc.status); got != tc.want {
			t.Errorf("%+v.Mark(%s) = %q, want %q", tc.st, tc.status, got, tc.want)
		}
	}
}

func TestStylePalette(t *testing.T) {
	st := Style{Color: true}
	for _, tc := range []struct{ kind, want string }{
		{"promoted", "\x1b[32mx\x1b[0m"},
		{"new_bullet", "\x1b[32mx\x1b[0m"},
		{"increment_helpful", "\x1b[36mx\x1b[0m"},
		{"duplicates trashed", "\x1b[33mx\x1b[0m"},
		{"Trashed", "\x1b[33mx\x1b[0m"},
		{"invalid", "\x1b[31mx\x1b[0m"},
		{"something else", "x"},
	} {
		if got := st.Decision(tc.kind, "x"); got != tc.want {
			t.Errorf("Decision(%q) = %q, want %q", tc.kind, got, tc.want)
		}
	}
	if got := (Style{}).Decision("promoted", "x"); got != "x" {
		t.Errorf("colour without colour: %q", got)
	}
	if got := st.Warning("careful\n"); got != "\x1b[33mcareful\x1b[0m\n" {
		t.Errorf("the newline is inside the colour: %q", got)
	}
}
