// Package initcmd is `curator init`: it creates a store and commits it.
package initcmd
