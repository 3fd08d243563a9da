package duration

import (
	"fmt"
	"math"
	"strings"
	"time"
)

// Day and Week are the units d and w: fixed lengths, not calendar days.
const (
	Day  = 24 * time.Hour
	Week = 7 * Day
)

// units are the accepted units, by name.
var units = map[string]time.Duration{
	"ns": time.Nanosecond, "us": time.Microsecond, "µs": time.Microsecond, "μs": time.Microsecond,
	"ms": time.Millisecond, "s": time.Second, "m": time.Minute, "h": time.Hour, "d": Day, "w": Week,
}

// Accepted says what Parse accepts, for messages.
const Accepted = "a number and a unit (ns, us, ms, s, m, h, d for days, w for weeks), e.g. 90s, 1.5h, 2d, 1w2d"

// Parse reads a duration: "0", or one or more parts of a decimal number and
// a unit, as Go's time.ParseDuration plus d (24h) and w (7d). A fraction
// is allowed on any part (1.5d = 36h) and is rounded down to the
// nanosecond. Negative durations, numbers without a unit (but 0), unknown
// units and spaces are refused.
func Parse(s string) (time.Duration, error) {
	bad := func(why string) (time.Duration, error) {
		return 0, fmt.Errorf("%q is not a duration: %s; want %s", s, why, Accepted)
	}
	switch {
	case s == "":
		return bad("it is empty")
	case s == "0":
		return 0, nil
	case strings.HasPrefix(s, "-"):
		return bad("it is negative")
	}
	var total time.Duration
	for rest := s; rest != ""; {
		i := 0
		for i < len(rest) && ('0' <= rest[i] && rest[i] <= '9' || rest[i] == '.') {
			i++
		}
		num := rest[:i]
		rest = rest[i:]
		j := 0
		for j < len(rest) && !('0' <= rest[j] && rest[j] <= '9' || rest[j] == '.') {
			j++
		}
		name := rest[:j]
		rest = rest[j:]
		whole, frac, ok := strings.Cut(num, ".")
		if num == "" || whole == "" && frac == "" || ok && strings.Contains(frac, ".") {
			return bad(fmt.Sprintf("%q is not a number", num))
		}
		unit, known := units[name]
		switch {
		case name == "":
			return bad(fmt.Sprintf("%s has no unit", num))
		case !known:
			return bad(fmt.Sprintf("unknown unit %q", name))
		}
		part, err := scale(whole, frac, unit)
		if err != nil || total > math.MaxInt64-part {
			return bad("it is too long")
		}
		total += part
	}
	return total, nil
}

// scale is whole.frac units, rounded down to the nanosecond.
func scale(whole, frac string, unit time.Duration) (time.Duration, error) {
	var w int64
	for _, c := range whole {
		if w > (math.MaxInt64-9)/10 {
			return 0, fmt.Errorf("overflow")
		}
		w = w*10 + int64(c-'0')
	}
	if w > math.MaxInt64/int64(unit) {
		return 0, fmt.Errorf("overflow")
	}
	d := time.Duration(w) * unit
	// the fraction, digit by digit: f/10 + f/100 … of the unit
	scale := float64(unit)
	var f float64
	for _, c := range frac {
		scale /= 10
		f += float64(c-'0') * scale
	}
	return d + time.Duration(f), nil
}

// Setting is a duration read from config.yaml with Parse (a YAML value:
// timeout: 1.5m).
type Setting time.Duration

// UnmarshalYAML reads the setting with Parse.
func (d *Setting) UnmarshalYAML(unmarshal func(any) error) error {
	var s string
	if err := unmarshal(&s); err != nil {
		return err
	}
	v, err := Parse(s)
	if err != nil {
		return err
	}
	*d = Setting(v)
	return nil
}
