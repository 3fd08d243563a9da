package agentsetup

import (
	"bytes"
	"fmt"

	"github.com/curator-dev/curator/curate/playbook"
)

// Markers of the curator section that `init --agent agents-md` writes
// beside the playbook block: like that block, what is between them belongs
// to curator and is rewritten; the rest of the file is kept.
const (
	guideBegin = "<!-- curator:guide:begin -->"
	guideEnd   = "<!-- curator:guide:end -->"
)

// injectGuide puts the guide section into a file's bytes: between its
// markers when present; else just before the playbook block when there is
// one; else at the end after a blank line. Running it again with the same
// guide returns the same bytes.
func injectGuide(file []byte, guide string) ([]byte, error) {
	section := guideBegin + "\n" + guide
	if len(guide) > 0 && guide[len(guide)-1] != '\n' {
		section += "\n"
	}
	section += guideEnd
	begin := bytes.Index(file, []byte(guideBegin))
	end := bytes.Index(file, []byte(guideEnd))
	switch {
	case begin >= 0 && end > begin:
		return splice(file, begin, end+len(guideEnd), section), nil
	case begin >= 0 || end >= 0:
		return nil, fmt.Errorf("the file has only one of %s and %s; fix it by hand", guideBegin, guideEnd)
	}
	if at := bytes.Index(file, []byte(playbook.InjectBegin)); at >= 0 {
		return splice(file, at, at, section+"\n\n"), nil
	}
	return playbook.AppendBlock(file, section), nil
}

// splice replaces file[from:to] with s.
func splice(file []byte, from, to int, s string) []byte {
	out := make([]byte, 0, len(file)+len(s))
	out = append(out, file[:from]...)
	out = append(out, s...)
	return append(out, file[to:]...)
}
