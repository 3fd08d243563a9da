// Package secrets finds credentials in text before curator writes it: API
// keys and tokens of well-known shapes, private key blocks, credentials in
// URLs, and password-/secret-/token-style assignments. One Policy (the
// built-in rules plus the store's allow-list) is used for every record and
// every commit message; what it finds is refused, or, for text copied from
// pipeline artifacts, redacted as [REDACTED:<rule>].
//
// The patterns are ported from gitleaks' default rules
// (github.com/gitleaks/gitleaks, config/gitleaks.toml, MIT licence,
// Copyright (c) 2019 Zachary Rice), rewritten in our own Go.
package secrets
