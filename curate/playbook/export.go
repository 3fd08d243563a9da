package playbook

import (
	"context"

	"github.com/curator-dev/curator/mdstore"
)

// ExportRequest asks for the active bullets in another playbook format.
type ExportRequest struct {
	// Format is ace (the one format).
	Format string
}

// Check refuses a format other than ace.
func (r ExportRequest) Check() error {
	if r.Format != "ace" {
		return paramErrorf("format", "want ace, not %q", r.Format)
	}
	return nil
}

// Export renders the active bullets as an ACE text playbook; the bullets
// it could not read are in Skipped.
func Export(_ context.Context, s *mdstore.Store, req ExportRequest) (*ExportReport, error) {
	if err := req.Check(); err != nil {
		return nil, err
	}
	list, err := s.ListBullets(true) // the archive too: an id it shares with an active bullet is named
	if err != nil {
		return nil, err
	}
	out := ExportACE(list.Active)
	return &ExportReport{Bullets: len(list.Active), Format: req.Format, Text: string(out), Skipped: list.Invalid}, nil
}
