// Package duration reads the durations a user writes, in flags and in
// config.yaml: Go's units (ns, us, µs, ms, s, m, h) plus days (d, 24h) and
// weeks (w, 7d), one or more parts (1w2d, 1h30m), a decimal fraction on any
// part (1.5d is 36h). Anything else is refused with what is accepted.
package duration
