// Package initcmd is `curator init`: its flags, and what storeinit did
// printed (the store, each agent file with what happens to it, the
// warnings).
package initcmd
