package main

import (
	"fmt"

	"github.com/curator-dev/curator/mdstore"
)

// reportInvalid names every file that could not be read, on stderr. The
// context commands still in this package use it.
func reportInvalid(g globals, inv []*mdstore.InvalidFile) {
	for _, f := range inv {
		fmt.Fprintf(g.stderr, "curator: skipped %s (left untouched)\n", f.Error())
	}
}
