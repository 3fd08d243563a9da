package pipeline

import "testing"

func TestAddWarnings(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"# B\n\n## Warnings & Known Issues\n\n- None.\n\n## References\n\n- x\n",
			"# B\n\n## Warnings & Known Issues\n\n- w1\n- w2\n\n## References\n\n- x\n"},
		{"# B\n\n## Warnings & Known Issues\n\n- old\n\n## References\n\n- x\n",
			"# B\n\n## Warnings & Known Issues\n\n- old\n- w1\n- w2\n\n## References\n\n- x\n"},
		// the curated text above may hold the heading: the last one is the brief's
		{"# B\n\n## Warnings & Known Issues\n\ncurated\n\n## Warnings & Known Issues\n\n- None.\n",
			"# B\n\n## Warnings & Known Issues\n\ncurated\n\n## Warnings & Known Issues\n\n- w1\n- w2\n\n"},
	} {
		got, err := addWarnings([]byte(tc.in), []string{"w1", "w2"})
		if err != nil || string(got) != tc.want {
			t.Errorf("addWarnings(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
	if _, err := addWarnings([]byte("# no section\n"), []string{"w"}); err == nil {
		t.Error("a brief without the section: no error")
	}
}
