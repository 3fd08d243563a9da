// Command curator keeps what a team of coding agents has learned as plain
// files in a git repository, and curates them with deterministic rules.
package main

import "os"

func main() {
	os.Exit(run(os.Args, os.Stdin, os.Stdout, os.Stderr))
}
