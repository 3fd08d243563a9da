package pipeline

import (
	"math"
	"unicode"
	"unicode/utf8"
)

// Budget statuses.
const (
	BudgetOK       = "✅"
	BudgetPressure = "⚠️"
	BudgetOver     = "🔴"
)

// pressureShare is the share of the budget above which a brief is under
// context pressure (⚠️).
const pressureShare = 0.75

// Budget is a brief's token estimate against the configured window.
type Budget struct {
	// Tokens is the estimate of the brief as written; RawTokens of the brief
	// before compression.
	Tokens    int `json:"tokens"`
	RawTokens int `json:"raw_tokens"`
	// Window is context_window; Limit is Window × Threshold, the brief's budget.
	Window    int     `json:"context_window"`
	Threshold float64 `json:"compression_threshold"`
	Limit     int     `json:"budget"`
	// UsedPercent is Tokens as a share of Limit; Remaining is Limit − Tokens.
	UsedPercent float64 `json:"used_percent"`
	Remaining   int     `json:"remaining"`
	// Status is ✅, ⚠️ or 🔴 (over budget, compressed); Label says it in words.
	Status string `json:"status"`
	Label  string `json:"label"`
	// Compressed names the compression levels applied, in order.
	Compressed []string `json:"compressed,omitempty"`
}

// SetTokens sets the estimate of the brief as written, and the share of
// the budget it uses; the status stays that of the uncompressed brief.
func (b *Budget) SetTokens(tokens int) {
	b.Tokens, b.Remaining = tokens, b.Limit-tokens
	if b.Limit > 0 {
		b.UsedPercent = math.Round(float64(tokens)*1000/float64(b.Limit)) / 10
	}
}

// NewBudget rates an estimate against a window and threshold.
func NewBudget(tokens, window int, threshold float64) Budget {
	b := Budget{RawTokens: tokens, Window: window, Threshold: threshold, Limit: int(float64(window) * threshold)}
	b.SetTokens(tokens)
	switch {
	case tokens > b.Limit:
		b.Status, b.Label = BudgetOver, "over budget"
	case float64(tokens) > pressureShare*float64(b.Limit):
		b.Status, b.Label = BudgetPressure, "context pressure"
	default:
		b.Status, b.Label = BudgetOK, "within budget"
	}
	return b
}

// EstimateTokens estimates how many tokens a BPE tokenizer of the GPT-4
// family (cl100k_base, o200k_base) makes of s, without its vocabulary. It
// follows the tokenizer's pre-split: a word with its leading space is one
// token up to 8 letters and one more per 8 letters after that; digits go in
// groups of three; a run of punctuation costs one token per two characters;
// runs of spaces or of newlines cost one token; other scripts cost one token
// per two letters, ideographs and symbols one each. README.md gives the
// measured error.
func EstimateTokens(s string) int {
	n := 0
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		j := i + size
		switch {
		case r < utf8.RuneSelf && isASCIILetter(byte(r)):
			for j < len(s) && isASCIILetter(s[j]) {
				j++
			}
			n += 1 + (j-i-1)/8
		case r >= '0' && r <= '9':
			for j < len(s) && s[j] >= '0' && s[j] <= '9' {
				j++
			}
			n += (j - i + 2) / 3
		case r == ' ' || r == '\t':
			for j < len(s) && (s[j] == ' ' || s[j] == '\t') {
				j++
			}
			if j-i > 1 || j == len(s) || !isASCIILetter(s[j]) && s[j] < utf8.RuneSelf && !isPunct(s[j]) {
				n++
			}
		case r == '\n' || r == '\r':
			for j < len(s) && (s[j] == '\n' || s[j] == '\r') {
				j++
			}
			n++
		case r < utf8.RuneSelf:
			for j < len(s) && isPunct(s[j]) {
				j++
			}
			n += (j - i + 1) / 2
		case unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) || unicode.Is(unicode.Katakana, r) || unicode.Is(unicode.Hangul, r):
			n++
		case unicode.IsLetter(r):
			k := 1
			for j < len(s) {
				r2, sz := utf8.DecodeRuneInString(s[j:])
				if !unicode.IsLetter(r2) || unicode.Is(unicode.Han, r2) {
					break
				}
				j += sz
				k++
			}
			n += (k + 1) / 2
		default:
			n++
		}
		i = j
	}
	return n
}

func isASCIILetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

func isPunct(c byte) bool {
	return c > ' ' && c < utf8.RuneSelf && !isASCIILetter(c) && (c < '0' || c > '9')
}
