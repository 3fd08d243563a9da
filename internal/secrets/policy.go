package secrets

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"
)

// AllowMarker on a line lets that line's secrets through (as gitleaks:allow
// does): for a documented example key that is not a real one.
const AllowMarker = "curator:allow-secret"

// Finding is one secret found in a text. It never holds the secret itself,
// so that printing a finding cannot leak it.
type Finding struct {
	// Rule is the rule's id (aws-access-key, private-key, …).
	Rule string `json:"rule"`
	// What describes the rule for a person.
	What string `json:"what"`
	// Line and Column (1-based, in bytes) are where the secret starts.
	Line   int `json:"line"`
	Column int `json:"column"`
	// Start and End are the secret's byte offsets in the text.
	Start int `json:"-"`
	End   int `json:"-"`
}

func (f Finding) String() string {
	return fmt.Sprintf("%s (%s) at line %d", f.Rule, f.What, f.Line)
}

// Policy is the rules plus the allow-list of one store.
type Policy struct {
	rules []*rule
	allow []*regexp.Regexp
}

var (
	defaultOnce   sync.Once
	defaultPolicy *Policy
)

// Default is the built-in rules with no allow-list.
func Default() *Policy {
	defaultOnce.Do(func() { defaultPolicy = &Policy{rules: builtinRules} })
	return defaultPolicy
}

// New returns the built-in rules with an allow-list: a value that one of the
// regular expressions matches (anywhere in it, unless anchored) is not
// reported. It is config.yaml's secrets.allow.
func New(allow []string) (*Policy, error) {
	p := &Policy{rules: builtinRules}
	for i, a := range allow {
		re, err := regexp.Compile(a)
		if err != nil {
			return nil, fmt.Errorf("secrets.allow[%d] %q: %w", i, a, err)
		}
		p.allow = append(p.allow, re)
	}
	return p, nil
}

// Find returns every secret in text, in text order, without overlaps.
func (p *Policy) Find(text string) []Finding {
	if p == nil {
		p = Default()
	}
	if text == "" {
		return nil
	}
	return p.find(text, true)
}

// find is Find; with near, a rule's pattern runs only on an ASCII text
// where one of its keywords passes the rule's near check (see near.go).
func (p *Policy) find(text string, near bool) []Finding {
	near = near && isASCII(text)
	lower := ""
	var out []Finding
	var order map[int]int
	for ri, r := range p.rules {
		if lower == "" {
			if near {
				lower = asciiLower(text)
			} else {
				lower = strings.ToLower(text)
			}
		}
		if near && !r.mayMatch(text, lower) || !near && !anyKeyword(lower, r.keywords) {
			continue
		}
		for _, m := range r.re.FindAllStringSubmatchIndex(text, -1) {
			g := r.group
			if g == 0 && r.re.NumSubexp() > 0 {
				g = 1
			}
			start, end := m[2*g], m[2*g+1]
			if start < 0 {
				continue
			}
			if r.wordEnd && end < len(text) && isAlnum(text[end]) {
				continue
			}
			v := text[start:end]
			if r.minEntropy > 0 && entropy(v) < r.minEntropy {
				continue
			}
			if r.notSecret != nil && r.notSecret(v) {
				continue
			}
			if r.harmlessName != nil && m[2] >= 0 && r.harmlessName.MatchString(text[m[2]:m[3]]) {
				continue
			}
			if p.allowed(v) || markedAllowed(text, start) {
				continue
			}
			line, col := position(text, start)
			out = append(out, Finding{Rule: r.id, What: r.what, Line: line, Column: col, Start: start, End: end})
			if order == nil {
				order = map[int]int{}
			}
			order[len(out)-1] = ri
		}
	}
	if len(out) < 2 {
		return out
	}
	idx := make([]int, len(out))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool {
		fa, fb := out[idx[a]], out[idx[b]]
		if fa.Start != fb.Start {
			return fa.Start < fb.Start
		}
		return order[idx[a]] < order[idx[b]]
	})
	kept := make([]Finding, 0, len(out))
	end := -1
	for _, i := range idx {
		if out[i].Start < end {
			continue // overlaps a secret already found
		}
		kept = append(kept, out[i])
		end = out[i].End
	}
	return kept
}

// Redact returns text with every secret replaced by [REDACTED:<rule>], and
// what it replaced.
func (p *Policy) Redact(text string) (string, []Finding) {
	fs := p.Find(text)
	if len(fs) == 0 {
		return text, nil
	}
	var b strings.Builder
	b.Grow(len(text))
	last := 0
	for _, f := range fs {
		b.WriteString(text[last:f.Start])
		b.WriteString("[REDACTED:" + f.Rule + "]")
		last = f.End
	}
	b.WriteString(text[last:])
	return b.String(), fs
}

func (p *Policy) allowed(v string) bool {
	for _, re := range p.allow {
		if re.MatchString(v) {
			return true
		}
	}
	return false
}

func isAlnum(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

func anyKeyword(lower string, kws []string) bool {
	for _, k := range kws {
		if strings.Contains(lower, k) {
			return true
		}
	}
	return false
}

// markedAllowed reports whether the line holding offset i carries AllowMarker.
func markedAllowed(text string, i int) bool {
	start := strings.LastIndexByte(text[:i], '\n') + 1
	end := strings.IndexByte(text[i:], '\n')
	if end < 0 {
		end = len(text)
	} else {
		end += i
	}
	return strings.Contains(text[start:end], AllowMarker)
}

// position returns the 1-based line and column of offset i.
func position(text string, i int) (int, int) {
	line := strings.Count(text[:i], "\n") + 1
	return line, i - (strings.LastIndexByte(text[:i], '\n') + 1) + 1
}
