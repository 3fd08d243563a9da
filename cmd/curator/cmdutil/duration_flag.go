package cmdutil

import (
	"time"

	"github.com/urfave/cli/v2"

	"github.com/curator-dev/curator/internal/duration"
)

// DurationFlag is a flag holding a duration, read as every duration of
// curator is (Go's units plus d for days and w for weeks: 500ms, 1.5d,
// 2w); anything else is a usage error. Read it with Duration.
func DurationFlag(name string, value time.Duration, usage string) *cli.GenericFlag {
	return &cli.GenericFlag{Name: name, Value: &durationValue{d: value}, Usage: usage}
}

// Duration is the value of the DurationFlag name (0 when there is none).
func Duration(c *cli.Context, name string) time.Duration {
	if v, ok := c.Generic(name).(*durationValue); ok {
		return v.d
	}
	return 0
}

type durationValue struct{ d time.Duration }

func (v *durationValue) Set(s string) error {
	d, err := duration.Parse(s)
	if err != nil {
		return err
	}
	v.d = d
	return nil
}

func (v *durationValue) String() string { return v.d.String() }
