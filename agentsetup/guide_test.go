package agentsetup

import (
	"strings"
	"testing"

	"github.com/curator-dev/curator/curate/playbook"
)

func TestInjectGuide(t *testing.T) {
	const guide = "## curator\n\nUse it.\n"
	section := guideBegin + "\n" + guide + guideEnd
	block := playbook.InjectBlock(nil, "")
	for _, tc := range []struct{ name, in, want string }{
		{"new file", "", section + "\n"},
		{"text without a newline", "# Agents", "# Agents\n\n" + section + "\n"},
		{"text", "# Agents\n", "# Agents\n\n" + section + "\n"},
		{"before the playbook block", "# Agents\n\n" + block + "\ntail\n", "# Agents\n\n" + section + "\n\n" + block + "\ntail\n"},
		{"old section replaced", "a\n" + guideBegin + "\nold\n" + guideEnd + "\nb\n", "a\n" + section + "\nb\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := injectGuide([]byte(tc.in), guide)
			if err != nil || string(got) != tc.want {
				t.Fatalf("got %v\n%s\nwant\n%s", err, got, tc.want)
			}
			again, err := injectGuide(got, guide)
			if err != nil || string(again) != string(got) {
				t.Errorf("again: %v\n%s", err, again)
			}
			// The playbook block goes after the section and leaves it alone.
			withBlock, err := playbook.Inject(got, block)
			if err != nil || !strings.Contains(string(withBlock), section) || strings.Index(string(withBlock), section) > strings.Index(string(withBlock), block) {
				t.Errorf("with the playbook block: %v\n%s", err, withBlock)
			}
		})
	}
	if _, err := injectGuide([]byte("x\n"+guideEnd+"\n"), guide); err == nil {
		t.Error("a file with only the end marker: no error")
	}
}
