package dashboard

import (
	"net"
	"net/http"
	"strings"
)

// GuardHost serves only requests addressed to the dashboard itself: the
// Host header must be an IP address (127.0.0.1, [::1], the address served
// on), localhost, or one of names (the host name of the serve address and
// those the user allowed). Anything else is answered 421 Misdirected
// Request: a web page whose own host name was made to resolve to this
// machine (DNS rebinding) cannot read the dashboard or its event stream.
func GuardHost(h http.Handler, names ...string) http.Handler {
	allowed := map[string]bool{"localhost": true}
	for _, n := range names {
		if n != "" {
			allowed[canonicalHost(n)] = true
		}
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host := r.Host
		if h, _, err := net.SplitHostPort(host); err == nil {
			host = h
		}
		host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
		if net.ParseIP(host) == nil && !allowed[canonicalHost(host)] {
			http.Error(w, "this dashboard answers only requests for its own address (localhost, 127.0.0.1, [::1], or a name given with --allow-host)",
				http.StatusMisdirectedRequest)
			return
		}
		h.ServeHTTP(w, r)
	})
}

func canonicalHost(h string) string { return strings.ToLower(strings.TrimSuffix(h, ".")) }
