package secrets

import (
	"strings"
)

// rule is one kind of secret. The patterns follow gitleaks' default rules
// (config/gitleaks.toml of github.com/gitleaks/gitleaks, MIT licence,
// Copyright (c) 2019 Zachary Rice); where curator found more before, the
// wider shape is kept.
type rule struct {
	// id names the rule in messages and in [REDACTED:<id>].
	id string
	// what describes it for a person.
	what string
	// keywords: the rule runs only on text holding one of them (lower case),
	// so that most text costs a few substring searches, not a regexp.
	keywords []string
	// re finds the secret; its first group, when it has one, is the value
	// (what is reported, allow-listed and redacted), else the whole match.
	re *pattern
	// minEntropy is the least Shannon entropy of the value (0: any).
	minEntropy float64
	// group is the submatch that holds the value (0: the whole match).
	group int
	// notSecret, when set, tells a value that only looks like one
	// (a placeholder, a variable name).
	notSecret func(v string) bool
	// wordEnd: the value may not be followed by a letter or a digit (it
	// would be the start of a longer word, not a token).
	wordEnd bool
	// harmlessName, when set, is matched against submatch 1 (the key's
	// name) of a rule whose value is group 2: keys such as public_key or
	// api_version hold no secret.
	harmlessName *pattern
	// near, when set, tells an occurrence of a keyword that no match of
	// re can hold, so that most texts skip re (see near.go).
	near nearFunc
}

// Rule ids, as they appear in messages and in [REDACTED:<id>].
const (
	RulePrivateKey     = "private-key"
	RuleAWSAccessKey   = "aws-access-key"
	RuleAWSSecretKey   = "aws-secret-key"
	RuleGitHubToken    = "github-token"
	RuleGitLabToken    = "gitlab-token"
	RuleSlackToken     = "slack-token"
	RuleSlackWebhook   = "slack-webhook"
	RuleStripeKey      = "stripe-key"
	RuleNPMToken       = "npm-token"
	RuleAnthropicKey   = "anthropic-api-key"
	RuleOpenAIKey      = "openai-api-key"
	RuleGoogleAPIKey   = "google-api-key"
	RuleJWT            = "jwt"
	RuleBearerToken    = "bearer-token"
	RuleURLCredentials = "url-credentials"
	RulePasswordAssign = "password-assignment"
	RuleGenericSecret  = "generic-secret"
	genericEntropy     = 3.5 // gitleaks' generic-api-key threshold
	tokenEntropy       = 3.0 // gitleaks' threshold for prefixed tokens
	// tokenStart is where a token may begin: the start of the text or
	// any character but a letter or a digit. "_" is not a word boundary
	// here, so a token glued to a name (k_AKIA…, token_ghp_…) is found.
	tokenStart           = `(?:^|[^A-Za-z0-9])`
	valueEnd             = `(?:[\x60'"\s;,)\]}<>]|\\[nrt]|$)`
	assignmentOperator   = `[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=)[\x60'"\s=]{0,5}`
	lettersOnlyPattern   = `^[a-zA-Z_.-]+$`
	placeholderWordsList = "changeme|change_me|password|passwd|secret|example|redacted|placeholder|none|null|nil|true|false|required|optional|string|value|your_password|mypassword|todo|tbd|hidden|masked|dummy|test|sample"
)

var (
	lettersOnly  = lazy(lettersOnlyPattern)
	placeholders = lazy(`(?i)^(?:` + placeholderWordsList + `)$`)
	// identifier-like values are code, not secrets: token=access_token,
	// password=os.Getenv, apiKey: config.apiKey.
	identifier = lazy(`^(?:[a-z_][a-z_.\[\]]*|[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+|[a-z]+(?:[A-Z][a-z]+)+)$`)
	// genericNames are keys that hold no secret although their names
	// contain one of the keywords (a subset of gitleaks' allow-list of the
	// generic rule).
	genericNames = lazy(`(?i)(?:access(?:ibility|or)|access[_.-]?id|random[_.-]?access|api[_.-]?(?:id|name|version)|author|(?:credentials?[_.-]?id|withCredentials)|(?:bucket|foreign|hot|idx|natural|primary|pub(?:lic)?|schema|sequence|sort|partition|row|cache|map|hash)[_.-]?key|monkey|turkey|keying|key[_.-]?(?:alias|board|code|frame|id|length|name|pair|press(?:ed)?|ring|size|stone|word|up|down|left|right|s)|secret[_.-]?(?:length|name|size|ref)|csrf[_.-]?token|(?:api|credentials|token)[_.-]?(?:endpoint|ur[il])|public[_.-]?token|(?:key|token)[_.-]?(?:file|type|count|limit|budget|estimate|s))`)
)

// placeholderValue reports a value that stands for a secret without being
// one: a variable or template reference, a word, a mask, a path.
func placeholderValue(v string) bool {
	v = strings.Trim(v, `"'`+"`")
	switch {
	case len(v) < 4,
		identifier.MatchString(v),
		lettersOnly.MatchString(v),
		placeholders.MatchString(v),
		strings.HasPrefix(v, "$"), strings.HasPrefix(v, "%"), strings.Contains(v, "{{"), strings.Contains(v, "${"),
		strings.HasPrefix(v, "<"), strings.HasPrefix(v, "[REDACTED"),
		strings.HasPrefix(v, "/"), strings.HasPrefix(v, "~/"), strings.HasPrefix(v, "./"),
		strings.Count(v, v[:1]) == len(v): // ****, xxxx
		return true
	}
	return false
}

// genericNotSecret is the generic rule's allow-list: letters-only values
// and keys known to hold no secret.
func genericNotSecret(v string) bool {
	return lettersOnly.MatchString(v) || placeholderValue(v)
}

// builtinRules are the rules in priority order: when two find the same
// value, the earlier one names it.
var builtinRules = []*rule{
	{id: RulePrivateKey, what: "private key block", keywords: []string{"-----begin"},
		re: lazy(`(?i)-----BEGIN[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----(?:[\s\S]*?-----END[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----)?`)},
	{id: RuleAWSAccessKey, what: "AWS access key id", keywords: []string{"akia", "asia", "abia", "acca", "a3t"},
		re: lazy(tokenStart + `((?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16})`), wordEnd: true,
		minEntropy: tokenEntropy,
		// gitleaks allow-lists AWS's documentation keys (…EXAMPLE).
		notSecret: func(v string) bool { return strings.HasSuffix(v, "EXAMPLE") }, near: tokenAtLeast(20)},
	{id: RuleAWSSecretKey, what: "AWS secret access key", keywords: []string{"aws", "secret"},
		re:         lazy(`(?i)(?:aws[\w.-]{0,20}?(?:secret|sk)|secret[_.-]?access[_.-]?key)[\w.-]{0,20}` + assignmentOperator + `([A-Za-z0-9/+]{40})(?:[^A-Za-z0-9/+=]|$)`),
		minEntropy: 4, near: assignedWithin(50, 40)},
	{id: RuleGitHubToken, what: "GitHub token", keywords: []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"},
		re:         lazy(tokenStart + `((?:ghp|gho|ghu|ghs|ghr)_[0-9A-Za-z]{30,}|github_pat_\w{40,})`),
		minEntropy: tokenEntropy, near: tokenAtLeast(34)},
	{id: RuleGitLabToken, what: "GitLab token", keywords: []string{"glpat-", "glptt-", "gldt-", "glrt-", "glcbt-", "glsoat-", "glffct-", "glft-", "glimt-", "glagent-", "gloas-", "gr1348941"},
		re:         lazy(tokenStart + `((?:glpat|glptt|gldt|glrt|glcbt|glsoat|glffct|glft|glimt|glagent|gloas)-[0-9A-Za-z_-]{20,}(?:\.[0-9a-z]{9})?|GR1348941[\w-]{20,})`),
		minEntropy: tokenEntropy, near: tokenAtLeast(25)},
	{id: RuleSlackWebhook, what: "Slack webhook", keywords: []string{"hooks.slack.com"},
		re: lazy(`((?:https?://)?hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9+/]{43,56})`)},
	{id: RuleSlackToken, what: "Slack token", keywords: []string{"xox", "xapp-"},
		re:   lazy(tokenStart + `(?i)(xox[abprseo]-[0-9A-Za-z-]{10,}|xoxe\.xox[bp]-\d-[A-Z0-9]{100,}|xapp-\d-[A-Z0-9]+-\d+-[a-z0-9]+)`),
		near: tokenAtLeast(12)},
	{id: RuleStripeKey, what: "Stripe key", keywords: []string{"sk_", "rk_"},
		re: lazy(tokenStart + `((?:sk|rk)_(?:test|live|prod)_[A-Za-z0-9]{10,99})`), wordEnd: true,
		minEntropy: 2, near: tokenAtLeast(18)},
	{id: RuleNPMToken, what: "npm access token", keywords: []string{"npm_"},
		re: lazy(tokenStart + `(?i)(npm_[a-z0-9]{36})`), wordEnd: true,
		minEntropy: 2, near: tokenAtLeast(40)},
	{id: RuleAnthropicKey, what: "Anthropic API key", keywords: []string{"sk-ant-"},
		re:         lazy(tokenStart + `(sk-ant-[A-Za-z0-9_-]{20,})`),
		minEntropy: tokenEntropy, near: tokenAtLeast(27)},
	{id: RuleOpenAIKey, what: "OpenAI API key", keywords: []string{"sk-", "t3blbkfj"},
		re:         lazy(tokenStart + `(sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}|[A-Za-z0-9_-]{10,}T3BlbkFJ[A-Za-z0-9_-]{10,})`),
		minEntropy: tokenEntropy, near: openAIToken},
	{id: RuleGoogleAPIKey, what: "Google API key", keywords: []string{"aiza"},
		re:         lazy(tokenStart + `(AIza[\w-]{35})`),
		minEntropy: tokenEntropy, near: tokenAtLeast(39)},
	{id: RuleJWT, what: "JSON web token", keywords: []string{"eyj"},
		re:         lazy(tokenStart + `(eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}={0,2})`),
		minEntropy: tokenEntropy, near: tokenAtLeast(35)},
	{id: RuleBearerToken, what: "bearer token", keywords: []string{"bearer"},
		re:         lazy(`(?i)\bbearer\s+([A-Za-z0-9_\-.=~+/]{20,})`),
		minEntropy: tokenEntropy, notSecret: genericNotSecret, near: bearerToken},
	{id: RuleURLCredentials, what: "credentials in a URL", keywords: []string{"://"},
		re:        lazy(`\b[a-zA-Z][a-zA-Z0-9+.\-]*://[^/\s:@]+:([^/\s:@]{3,})@`),
		notSecret: placeholderValue, near: urlCredentials},
	{id: RulePasswordAssign, what: "password assignment", keywords: []string{"pass", "pwd"},
		re:        lazy(`(?i)(?:\bpwd|passw(?:or)?d|passphrase)\w{0,20}["']?\s*(?::=|=>|[:=])\s*("[^"\s]{4,}"|'[^'\s]{4,}'|[^\s"'<>{}(),;\x60\\]{4,})`),
		notSecret: placeholderValue, near: passwordAssigned},
	{id: RuleGenericSecret, what: "secret assignment", keywords: []string{"access", "api", "auth", "key", "credential", "creds", "secret", "token"},
		re: lazy(`(?i)([\w.-]{0,50}?(?:access|auth|api|credential|creds|key|secret|token)[\w.-]{0,20})` + assignmentOperator +
			`([\w.=-]{10,150}|[a-z0-9][a-z0-9+/]{11,}={0,3})` + valueEnd),
		group: 2, minEntropy: genericEntropy, notSecret: genericNotSecret, harmlessName: genericNames, near: assignedWithin(20, 10)},
}

// openAIToken is tokenAtLeast(23) for "sk-"; the older keys hold their
// keyword in the middle, and are looked for whenever it occurs.
func openAIToken(text string, at int, kw string) bool {
	if kw != "sk-" {
		return true
	}
	return tokenAtLeast(23)(text, at, kw)
}
