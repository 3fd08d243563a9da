package diffcmd

import (
	"bytes"
	"strings"
	"testing"

	"github.com/curator-dev/curator/history"
)

// TestTextColour: colour only when asked (a terminal without NO_COLOR),
// and the same words either way.
func TestTextColour(t *testing.T) {
	res := &history.Result{
		Changes:  []history.Change{{Kind: history.Promoted, Record: "memory", ID: "f-1", From: "inbox", To: "confirmed/fact"}, {Kind: history.Removed, Record: "bullet", ID: "STRAT-9", Path: "context/bullets/strategy/STRAT-9.md"}},
		Warnings: []history.Warning{{Kind: history.WarnRemoved, Record: "bullet", ID: "STRAT-9", Path: "context/bullets/strategy/STRAT-9.md", Message: "removed outright"}},
	}
	var plain, coloured bytes.Buffer
	if err := Text(&plain, res, false); err != nil {
		t.Fatal(err)
	}
	if err := Text(&coloured, res, true); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(plain.String(), "\x1b[") {
		t.Errorf("colour without a terminal:\n%q", plain.String())
	}
	for _, want := range []string{"\x1b[32mpromoted", "\x1b[31mremoved", "\x1b[33mwarning:"} {
		if !strings.Contains(coloured.String(), want) {
			t.Errorf("no %q in\n%q", want, coloured.String())
		}
	}
	strip := strings.NewReplacer("\x1b[32m", "", "\x1b[31m", "", "\x1b[33m", "", "\x1b[0m", "")
	if strip.Replace(coloured.String()) != plain.String() {
		t.Errorf("the coloured text says something else:\n%s\n%s", coloured.String(), plain.String())
	}
}
