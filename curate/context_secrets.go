package curate

import "regexp"

// secretPatterns are what a lesson must not carry into a bullet (or a
// commit): API keys and tokens of well-known shapes, private key blocks and
// password-/token-style assignments with a value.
var secretPatterns = []struct {
	name string
	re   *regexp.Regexp
}{
	{"private key block", regexp.MustCompile(`-----BEGIN [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----`)},
	{"OpenAI/Anthropic-style API key", regexp.MustCompile(`\bsk-(?:ant-|proj-)?[A-Za-z0-9_\-]{20,}`)},
	{"AWS access key id", regexp.MustCompile(`\b(?:AKIA|ASIA)[0-9A-Z]{16}\b`)},
	{"GitHub token", regexp.MustCompile(`\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{30,}|\bgithub_pat_[A-Za-z0-9_]{40,}`)},
	{"Slack token", regexp.MustCompile(`\bxox[abprs]-[A-Za-z0-9-]{10,}`)},
	{"Google API key", regexp.MustCompile(`\bAIza[0-9A-Za-z_\-]{35}\b`)},
	{"JSON web token", regexp.MustCompile(`\beyJ[A-Za-z0-9_\-]{10,}\.[A-Za-z0-9_\-]{10,}\.[A-Za-z0-9_\-]{10,}`)},
	{"bearer token", regexp.MustCompile(`(?i)\bbearer\s+[A-Za-z0-9_\-\.=]{20,}`)},
	{"credentials in a URL", regexp.MustCompile(`\b[a-z][a-z0-9+.\-]*://[^/\s:@]+:[^/\s:@]{3,}@`)},
}

// assignRE finds password-/token-style assignments; the value is checked
// by literalValue so that code naming a variable (token=access_token) is
// not taken for a secret.
var assignRE = regexp.MustCompile(`(?i)\b(?:password|passwd|pwd|passphrase|secret|client_secret|api[_-]?key|apikey|access[_-]?token|auth[_-]?token|token)\b\s*[:=]\s*("[^"\s]{4,}"|'[^'\s]{4,}'|[^\s"'<>{}(),;]{4,})`)

// identRE is a lower-case identifier: a variable name, not a secret.
var identRE = regexp.MustCompile(`^[a-z_][a-z_.\[\]]*$`)

// FindSecret returns the kind of the first secret-looking text in s, or "".
func FindSecret(s string) string {
	for _, p := range secretPatterns {
		if p.re.MatchString(s) {
			return p.name
		}
	}
	for _, m := range assignRE.FindAllStringSubmatch(s, -1) {
		v := m[1]
		if v[0] == '"' || v[0] == '\'' || !identRE.MatchString(v) {
			return "credential assignment"
		}
	}
	return ""
}
