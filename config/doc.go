// Package config is a store's config.yaml: every section as a typed value
// with its defaults, read and checked once when a run opens the store (an
// unknown key or a wrong value is refused, naming the file, the line and
// the key), and the default constants the commands' help text prints.
package config
