package cmdutil

import (
	"reflect"
	"strings"

	"github.com/urfave/cli/v2"
)

// RequireFlags checks c's required flags itself: urfave/cli prints the
// command's help on stdout when one is missing, and a usage error belongs
// on stderr alone.
func RequireFlags(c *cli.Command) {
	var required []string
	for _, f := range c.Flags {
		r, ok := f.(cli.RequiredFlag)
		if !ok || !r.IsRequired() {
			continue
		}
		v := reflect.ValueOf(f)
		if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
			continue
		}
		field := v.Elem().FieldByName("Required")
		if !field.IsValid() || field.Kind() != reflect.Bool || !field.CanSet() {
			continue
		}
		field.SetBool(false)
		required = append(required, f.Names()[0])
	}
	if len(required) == 0 {
		return
	}
	before := c.Before
	c.Before = func(ctx *cli.Context) error {
		var missing []string
		for _, name := range required {
			if !ctx.IsSet(name) {
				missing = append(missing, "--"+name)
			}
		}
		if len(missing) > 0 {
			return Usagef("%s: missing required flag %s", c.HelpName, strings.Join(missing, ", "))
		}
		if before != nil {
			return before(ctx)
		}
		return nil
	}
}
