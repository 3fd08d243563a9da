package main

import "testing"

func TestVersionString(t *testing.T) {
	for _, tc := range []struct {
		v    buildInfo
		want string
	}{
		{buildInfo{Version: "(devel)"}, "(devel)"},
		{buildInfo{Version: "v1.2.0", Commit: "1a2b3c4d5e6f7a8b9c0d", Time: "2026-11-30T10:00:00Z"}, "v1.2.0 (commit 1a2b3c4d5e6f, 2026-11-30T10:00:00Z)"},
		{buildInfo{Version: "(devel)", Commit: "1a2b3c", Modified: true}, "(devel) (commit 1a2b3c, modified)"},
	} {
		if got := tc.v.String(); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.v, got, tc.want)
		}
	}
}
