// Package safepath decides which ids may name a file and which paths stay
// inside a folder: an id is one safe file name that reads as what it is (no
// separators, no "..", no space at either end, no control, format or bidi
// characters), and an existing path may not leave its root through a
// symlink. The store and the pipeline state both use it.
package safepath
