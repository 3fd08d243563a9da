package dashboard

import (
	"fmt"
	"net"
	"strings"
)

// CheckServeAddr refuses to serve dashboards on an address other machines
// can reach, unless allowRemote: the host must be a loopback address
// (127.0.0.1, [::1]) or localhost. An empty host (":7777") or an unspecified
// one ("0.0.0.0:7777", "[::]:7777") listens on every network interface, and
// a name other than localhost may too, so they are refused.
func CheckServeAddr(addr string, allowRemote bool) error {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("serve address %q: want HOST:PORT, e.g. 127.0.0.1:8080", addr)
	}
	if allowRemote || loopback(host) {
		return nil
	}
	reach := "other machines can reach"
	if ip := net.ParseIP(host); host == "" || ip != nil && ip.IsUnspecified() {
		reach = "listens on every network interface"
	}
	return fmt.Errorf("serve address %q %s; use %s to keep the dashboard on this machine, or pass --allow-remote to show it to other machines",
		addr, reach, net.JoinHostPort("127.0.0.1", port))
}

// loopback is true for a host only this machine reaches.
func loopback(host string) bool {
	if strings.EqualFold(strings.TrimSuffix(host, "."), "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
