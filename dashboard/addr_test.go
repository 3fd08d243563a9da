package dashboard

import (
	"strings"
	"testing"
)

func TestCheckServeAddr(t *testing.T) {
	for _, tc := range []struct {
		addr   string
		local  bool // accepted without allowRemote
		advice string
	}{
		{"127.0.0.1:0", true, ""},
		{"127.0.0.1:8080", true, ""},
		{"localhost:7777", true, ""},
		{"[::1]:7777", true, ""},
		{":7777", false, "every network interface"},
		{"0.0.0.0:7777", false, "every network interface"},
		{"[::]:7777", false, "every network interface"},
		{"192.168.1.5:80", false, "other machines can reach"},
		{"example.com:80", false, "other machines can reach"},
	} {
		t.Run(tc.addr, func(t *testing.T) {
			err := CheckServeAddr(tc.addr, false)
			if tc.local {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if err == nil {
				t.Fatal("accepted without allowRemote")
			}
			port := tc.addr[strings.LastIndex(tc.addr, ":"):]
			for _, want := range []string{tc.advice, "use 127.0.0.1" + port, "pass --allow-remote"} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("%q does not say %q", err, want)
				}
			}
			if err := CheckServeAddr(tc.addr, true); err != nil {
				t.Errorf("refused with allowRemote: %v", err)
			}
		})
	}
	for _, bad := range []string{"7777", "127.0.0.1", ""} {
		if err := CheckServeAddr(bad, true); err == nil || !strings.Contains(err.Error(), "HOST:PORT") {
			t.Errorf("%q: %v, want a HOST:PORT error", bad, err)
		}
	}
}
