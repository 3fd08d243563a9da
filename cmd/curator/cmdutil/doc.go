// Package cmdutil is what every curator command shares: the IO streams, the
// global flags, the store transaction a command opens, JSON and human
// output and its terminal style (colours, status marks), the exit-status
// table and the error kinds that map onto it.
// Command groups live in cmd/curator/<group>/, one file per command.
package cmdutil
