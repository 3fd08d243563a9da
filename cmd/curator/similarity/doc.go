// Package similaritycmd is `curator similarity`: it scores pairs of texts
// with the engine that `context curate` uses.
package similaritycmd
