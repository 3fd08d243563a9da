package playbook

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/curator-dev/curator/mdstore"
)

// SensitiveTag is the tag that marks a lesson (and its bullet) sensitive.
const SensitiveTag = "sensitive"

// Sensitivity tells the sensitive lessons and bullets: those tagged
// SensitiveTag and those whose text matches one of config.yaml's
// context.sensitive_patterns. A sensitive bullet waits for review
// (validation: required). The zero value knows only the tag.
type Sensitivity struct {
	patterns []*regexp.Regexp
}

// NewSensitivity compiles the patterns (config.yaml's checker has already
// refused a bad one).
func NewSensitivity(patterns []string) (*Sensitivity, error) {
	s := &Sensitivity{}
	for _, p := range patterns {
		re, err := regexp.Compile(p)
		if err != nil {
			return nil, fmt.Errorf("context.sensitive_patterns: %q: %w", p, err)
		}
		s.patterns = append(s.patterns, re)
	}
	return s, nil
}

// LoadSensitivity is the store's sensitivity (config.yaml's context section).
func LoadSensitivity(s *mdstore.Store) (*Sensitivity, error) {
	return NewSensitivity(s.Config.Context.SensitivePatterns)
}

// Why says why a text with these tags is sensitive ("tagged sensitive",
// "matches sensitive pattern …"), "" when it is not.
func (s *Sensitivity) Why(content string, tags []string) string {
	if slices.ContainsFunc(tags, func(t string) bool { return strings.EqualFold(strings.TrimSpace(t), SensitiveTag) }) {
		return "tagged " + SensitiveTag
	}
	if s == nil {
		return ""
	}
	for _, re := range s.patterns {
		if re.MatchString(content) {
			return fmt.Sprintf("matches sensitive pattern %q", re.String())
		}
	}
	return ""
}

// flagSensitive marks the bullet an action makes for review when its
// content or tags are sensitive, and says why in its reasoning.
func (s *Sensitivity) flagSensitive(a *Action) {
	if why := s.Why(a.Content, a.Tags); why != "" {
		a.Validation = "required"
		a.Reasoning = strings.TrimSpace(a.Reasoning + "; " + why + ": validation required")
		a.Reasoning = strings.TrimPrefix(a.Reasoning, "; ")
	}
}
