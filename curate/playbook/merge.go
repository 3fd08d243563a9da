package playbook

import (
	"regexp"
	"strings"
	"unicode"
)

// MergeContent combines bullet texts without losing a sentence: the first
// text is kept as it is, and every sentence of the others that it does not
// already hold (compared case- and space-insensitively, ignoring the final
// punctuation) is appended, in order. Lines of a multi-line text stay lines.
func MergeContent(texts ...string) string {
	var out strings.Builder
	have := map[string]bool{}
	for _, t := range texts {
		t = strings.TrimSpace(t)
		if t == "" {
			continue
		}
		if out.Len() == 0 {
			out.WriteString(t)
			for _, s := range Sentences(t) {
				have[NormSentence(s)] = true
			}
			continue
		}
		for _, s := range Sentences(t) {
			k := NormSentence(s)
			if k == "" || have[k] {
				continue
			}
			have[k] = true
			sep := "\n"
			if !strings.Contains(t, "\n") && splitsBefore(out.String(), s) {
				sep = " "
			}
			out.WriteString(sep)
			out.WriteString(s)
		}
	}
	return out.String()
}

// splitsBefore reports whether Sentences would split "prev s" between the
// two, so that joining them with a space keeps s a sentence of its own.
func splitsBefore(prev, s string) bool {
	if prev == "" || s == "" {
		return false
	}
	switch prev[len(prev)-1] {
	case '.', '!', '?':
	default:
		return false
	}
	n := []rune(s)[0]
	return unicode.IsUpper(n) || unicode.IsDigit(n) || strings.ContainsRune(sentenceOpeners, n)
}

const sentenceOpeners = "\"'([`"

// Sentences splits a text into sentences: at line breaks, and after ".",
// "!" or "?" followed by a space and an upper-case letter, digit, quote or
// bracket (so "e.g. the" stays one sentence).
func Sentences(text string) []string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		rs := []rune(line)
		start := 0
		for i := 0; i < len(rs)-2; i++ {
			if (rs[i] == '.' || rs[i] == '!' || rs[i] == '?') && rs[i+1] == ' ' {
				n := rs[i+2]
				if unicode.IsUpper(n) || unicode.IsDigit(n) || strings.ContainsRune(sentenceOpeners, n) {
					if s := strings.TrimSpace(string(rs[start : i+1])); s != "" {
						out = append(out, s)
					}
					start = i + 2
				}
			}
		}
		if s := strings.TrimSpace(string(rs[start:])); s != "" {
			out = append(out, s)
		}
	}
	return out
}

var spaceRE = regexp.MustCompile(`\s+`)

// NormSentence is the key two sentences are compared by: lower case, runs
// of spaces as one, no surrounding space or final punctuation.
func NormSentence(s string) string {
	s = strings.ToLower(spaceRE.ReplaceAllString(strings.TrimSpace(s), " "))
	return strings.TrimRight(s, ".!?;: ")
}

// MissingSentences returns the sentences of src whose key is not among the
// sentences of merged: empty when merged lost nothing of src.
func MissingSentences(merged, src string) []string {
	have := map[string]bool{}
	for _, s := range Sentences(merged) {
		have[NormSentence(s)] = true
	}
	var out []string
	for _, s := range Sentences(src) {
		if k := NormSentence(s); k != "" && !have[k] {
			out = append(out, s)
		}
	}
	return out
}
