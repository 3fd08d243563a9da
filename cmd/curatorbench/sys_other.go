//go:build !unix

package main

import "os"

// childMaxRSS is unknown here.
func childMaxRSS(*os.ProcessState) int64 { return 0 }

// syncDisks has no system-wide sync to call here.
func syncDisks() {}
