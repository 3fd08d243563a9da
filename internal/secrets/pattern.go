package secrets

import (
	"regexp"
	"sync"
)

// pattern is a regular expression compiled the first time it is used: a
// command that scans no text, or none holding a rule's keywords, does not
// pay for compiling the rules (several milliseconds at every start).
type pattern struct {
	expr string
	once sync.Once
	re   *regexp.Regexp
}

// lazy returns the pattern of expr, compiled when first used (an invalid
// expr panics then; TestPatternsCompile compiles them all).
func lazy(expr string) *pattern { return &pattern{expr: expr} }

func (p *pattern) compiled() *regexp.Regexp {
	p.once.Do(func() { p.re = regexp.MustCompile(p.expr) })
	return p.re
}

func (p *pattern) MatchString(s string) bool { return p.compiled().MatchString(s) }

func (p *pattern) NumSubexp() int { return p.compiled().NumSubexp() }

func (p *pattern) FindAllStringSubmatchIndex(s string, n int) [][]int {
	return p.compiled().FindAllStringSubmatchIndex(s, n)
}
