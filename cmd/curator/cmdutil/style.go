package cmdutil

import (
	"strings"
)

// Style is how human output looks on one stream: on a terminal, colours
// (unless NO_COLOR) and status symbols (✅ ❌ ⚠️); elsewhere — a pipe, a
// file, a log — plain words (ok, blocked, warning) and no escape codes.
// CLICOLOR_FORCE=1 gives the terminal's style anywhere (NO_COLOR still
// turns its colours off).
type Style struct {
	// Color is true when the stream takes ANSI colours.
	Color bool
	// Symbols is true when the stream is a terminal, so status symbols
	// are shown instead of words.
	Symbols bool
}

// Statuses a mark can show.
const (
	StatusOK      = "ok"
	StatusBlocked = "blocked"
	StatusWarning = "warning"
)

var statusSymbol = map[string]string{
	StatusOK:      "✅",
	StatusBlocked: "❌",
	StatusWarning: "⚠️ ",
}

var statusColor = map[string]string{
	StatusOK:      green,
	StatusBlocked: red,
	StatusWarning: yellow,
}

// ANSI colour codes.
const (
	red    = "31"
	green  = "32"
	yellow = "33"
	cyan   = "36"
)

// Decision colours: the same palette for every command that reports
// decisions (memory curate, context curate, diff, pipeline): what enters
// or grows is green, what is strengthened or changed in place is cyan,
// what is set aside (trash, archive, kept for later) is yellow, what is
// removed, invalid or refused is red.
var decisionColor = map[string]string{
	// entered or grew
	"promoted": green, "added": green, "restored": green, "merged": green, "curated": green,
	"new_bullet": green, "merge_similar": green, "rule": green,
	// strengthened or changed in place
	"reinforced": cyan, "counters": cyan, "edited": cyan, "moved": cyan, "state": cyan, "written": cyan,
	"increment_helpful": cyan, "increment_harmful": cyan, "rebalance": cyan, "review": cyan,
	// set aside
	"trashed": yellow, "archived": yellow, "archive": yellow, "prune": yellow, "discarded": yellow,
	"duplicate": yellow, "duplicates": yellow, "kept": yellow, "left_for_reflection": yellow,
	"proposal": yellow, "skip": yellow, "late": yellow, "left": yellow,
	// removed, invalid, refused
	"removed": red, "invalid": red, "blocked": red, "rejected": red,
}

// Mark is the status as a symbol on a terminal, or as its word elsewhere
// (ok, blocked, over; "warning:" for a warning, which a message follows);
// coloured when the stream takes colour.
func (s Style) Mark(status string) string {
	if s.Symbols {
		if sym, ok := statusSymbol[status]; ok {
			return sym
		}
	}
	word := status
	if status == StatusWarning {
		word += ":"
	}
	return s.paint(statusColor[status], word)
}

// Icon is an icon (a section's 📊) on a terminal, "" elsewhere.
func (s Style) Icon(symbol string) string {
	if s.Symbols {
		return symbol
	}
	return ""
}

// Decision paints text in the colour of a decision kind (promoted,
// trashed, increment_helpful, …); text is unchanged without colour or for
// an unknown kind.
func (s Style) Decision(kind, text string) string {
	kind = strings.ToLower(kind)
	code, ok := decisionColor[kind]
	if !ok {
		// "duplicates trashed", "kept in the inbox": the first word decides.
		if first, _, found := strings.Cut(kind, " "); found {
			code = decisionColor[first]
		}
	}
	return s.paint(code, text)
}

// Error paints an error message red.
func (s Style) Error(text string) string { return s.paint(red, text) }

// Warning paints a warning yellow.
func (s Style) Warning(text string) string { return s.paint(yellow, text) }

// paint wraps text in an ANSI colour, keeping a trailing newline outside
// the escape codes.
func (s Style) paint(code, text string) string {
	if !s.Color || code == "" || text == "" {
		return text
	}
	body := strings.TrimRight(text, "\n")
	return "\x1b[" + code + "m" + body + "\x1b[0m" + text[len(body):]
}

// OutStyle is the style of stdout.
func (io *IOStreams) OutStyle() Style { return Style{Color: io.OutColor, Symbols: io.OutTTY} }

// ErrStyle is the style of stderr.
func (io *IOStreams) ErrStyle() Style { return Style{Color: io.Color, Symbols: io.StderrTTY} }

// Mark is the status mark of the command's stdout (see Style.Mark).
func (e Env) Mark(status string) string { return e.IO.OutStyle().Mark(status) }
