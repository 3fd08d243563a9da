package storesync

import (
	"errors"
	"testing"
	"time"

	"github.com/curator-dev/curator/internal/refuse"
)

// A sync asked for negative retries or a negative timeout is a refused
// request naming the parameter; the defaults pass.
func TestSyncRequestCheck(t *testing.T) {
	if err := (SyncRequest{Retries: DefaultRetries, Backoff: DefaultBackoff, Timeout: DefaultTimeout}).Check(); err != nil {
		t.Errorf("defaults: %v", err)
	}
	for param, req := range map[string]SyncRequest{"timeout": {Timeout: -time.Second}, "retries": {Retries: -1}} {
		err := req.Check()
		var pe *refuse.ParamError
		if !refuse.IsRequest(err) || !errors.As(err, &pe) || pe.Param != param || err.Error() != param+" cannot be negative" {
			t.Errorf("%s: got %v, want the refused request %q", param, err, param+" cannot be negative")
		}
	}
}
