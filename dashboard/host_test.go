package dashboard

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

func TestGuardHost(t *testing.T) {
	ok := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("page")) })
	h := GuardHost(ok, "dash.example")
	for host, want := range map[string]int{
		"127.0.0.1:7777": 200, "localhost:7777": 200, "LOCALHOST.": 200, "[::1]:7777": 200, "10.1.2.3": 200,
		"dash.example:7777": 200, "evil.example": 421, "evil.example:7777": 421, "localhost.evil.example": 421, "": 421,
	} {
		r := httptest.NewRequest("GET", "/events", nil)
		r.Host = host
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		if rec.Code != want {
			t.Errorf("Host %q: %d, want %d", host, rec.Code, want)
		}
	}
}
