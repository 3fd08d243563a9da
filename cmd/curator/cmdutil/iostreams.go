package cmdutil

import (
	"bytes"
	"io"
	"os"
	"strings"

	"golang.org/x/term"
)

// IOStreams are a command's input and outputs, and what they are attached to.
type IOStreams struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer
	// OutTTY is true when Out is a terminal (status symbols are shown).
	OutTTY bool
	// StderrTTY is true when ErrOut is a terminal (progress bars go there).
	StderrTTY bool
	// Color is false with NO_COLOR or when ErrOut is not a terminal.
	Color bool
	// OutColor is false with NO_COLOR or when Out is not a terminal.
	OutColor bool
}

// System are the process's own streams.
func System() *IOStreams {
	return Streams(os.Stdin, os.Stdout, os.Stderr)
}

// Streams wraps the given reader and writers; a writer that is an *os.File
// on a terminal is seen as one. CLICOLOR_FORCE=1 styles the process's
// output as for a terminal wherever it goes (NO_COLOR still turns colours
// off); buffers are never styled, and progress bars are drawn on a real
// terminal only.
func Streams(in io.Reader, out, errOut io.Writer) *IOStreams {
	io := &IOStreams{In: in, Out: out, ErrOut: errOut}
	force := os.Getenv("CLICOLOR_FORCE") != "" && os.Getenv("CLICOLOR_FORCE") != "0"
	color := os.Getenv("NO_COLOR") == ""
	if f, ok := out.(*os.File); ok && (force || term.IsTerminal(int(f.Fd()))) {
		io.OutTTY = true
		io.OutColor = color
	}
	if f, ok := errOut.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		io.StderrTTY = true
		io.Color = color
	} else if ok && force {
		io.Color = color
	}
	return io
}

// Test returns streams over buffers: stdin from in, and the two outputs.
func Test(in string) (*IOStreams, *bytes.Buffer, *bytes.Buffer) {
	out, errOut := &bytes.Buffer{}, &bytes.Buffer{}
	return &IOStreams{In: strings.NewReader(in), Out: out, ErrOut: errOut}, out, errOut
}
