package duration

import (
	"strings"
	"testing"
	"time"
)

func TestParse(t *testing.T) {
	for in, want := range map[string]time.Duration{
		"0":       0,
		"10s":     10 * time.Second,
		"500ms":   500 * time.Millisecond,
		"1.5h":    90 * time.Minute,
		"1h30m":   90 * time.Minute,
		"30d":     30 * Day,
		"1.5d":    36 * time.Hour,
		"0.5d":    12 * time.Hour,
		".5d":     12 * time.Hour,
		"2w":      14 * Day,
		"1w2d":    9 * Day,
		"1d12h":   36 * time.Hour,
		"2.5w":    17*Day + 12*time.Hour,
		"1µs":     time.Microsecond,
		"1us":     time.Microsecond,
		"0s":      0,
		"1.25m":   75 * time.Second,
		"100ns":   100,
		"0.1d":    144 * time.Minute,
		"1.0001s": time.Second + 100*time.Microsecond,
	} {
		got, err := Parse(in)
		if err != nil || got != want {
			t.Errorf("Parse(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
}

func TestParseRefuses(t *testing.T) {
	for in, why := range map[string]string{
		"":          "empty",
		"5":         "no unit",
		"2weeksd":   `unknown unit "weeksd"`,
		"1.5.d":     "not a number",
		"d":         "not a number",
		"-1h":       "negative",
		"1 d":       `unknown unit " d"`,
		"1day":      `unknown unit "day"`,
		"10S":       `unknown unit "S"`,
		"1d ":       `unknown unit "d "`,
		"99999999w": "too long",
		"1y":        `unknown unit "y"`,
		"one":       "not a number",
		".d":        "not a number",
	} {
		_, err := Parse(in)
		if err == nil || !strings.Contains(err.Error(), why) || !strings.Contains(err.Error(), "want a number and a unit") {
			t.Errorf("Parse(%q): %v, want an error saying %q", in, err, why)
		}
	}
}

// Parse agrees with time.ParseDuration where both accept the text.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"1h", "1.5h", "2h45m", "1.000000001s", "3d", "0.3ms"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := Parse(s)
		want, gerr := time.ParseDuration(s)
		if err == nil && gerr == nil && want >= 0 {
			if diff := got - want; diff < -1 || diff > 1 {
				t.Errorf("Parse(%q) = %v, time.ParseDuration %v", s, got, want)
			}
		}
		if err == nil && got < 0 {
			t.Errorf("Parse(%q) = %v < 0", s, got)
		}
	})
}
