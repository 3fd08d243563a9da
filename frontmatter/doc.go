// Package frontmatter reads and writes markdown documents that start with a
// YAML frontmatter block between "---" lines. A document that is read and
// written back unchanged is byte-identical, and editing one key rewrites only
// that key's lines: key order, comments, unknown keys and the body are kept.
// The layout curator itself writes is read without the YAML parser, into
// the same nodes; any other text goes through the parser.
package frontmatter
