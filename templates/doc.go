// Package templates holds the text curator renders into files: the context
// brief handed to the next agent of a pipeline and the pipeline dashboard.
// They are embedded in the binary; add new templates next to them.
package templates
