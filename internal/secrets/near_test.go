package secrets

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// pieces are the bytes texts are built from in the tests of the near
// checks: keywords of every rule, operators, quotes, spaces, token
// characters and whole fake secrets, so that random texts hit the edges of
// each check (one character short of a token, an operator one name
// character too far, a URL without its '@').
var pieces = []string{
	"key", "api", "token", "access", "auth", "secret", "creds", "credential", "pass", "pwd", "password", "passphrase",
	"bearer", "://", "aws", "AKIA", "ghp_", "github_pat_", "glpat-", "GR1348941", "xoxb-", "xapp-", "sk_", "rk_", "test_",
	"live_", "npm_", "sk-ant-", "sk-", "T3BlbkFJ", "AIza", "eyJ", ".", "-", "_", "=", ":", ":=", "=>", "||", "?=", ">",
	"\"", "'", "`", " ", "  ", "\n", "\t", "@", "/", "+", "~", ";", ",", "Q8r3Zk9PLmX4vT7w", "a", "Z", "0", "9",
	"https://", "user", "hunter2x", "example.com", awsKey, awsSecret, ghToken, glToken, slackToken, stripeKey, npmToken,
	openAIKey, openAIOld, anthKey, googleKey, jwt, "-----BEGIN RSA PRIVATE KEY-----", AllowMarker,
}

func randomText(rng *rand.Rand) string {
	var b strings.Builder
	for n := rng.IntN(24); n >= 0; n-- {
		b.WriteString(pieces[rng.IntN(len(pieces))])
	}
	return b.String()
}

// TestNearIsExact checks that skipping a rule by its near checks never
// changes what Find reports: on the test table's texts and on random
// texts built to sit at the checks' edges, Find equals the pattern run
// on every text that holds a keyword.
func TestNearIsExact(t *testing.T) {
	p := Default()
	rng := rand.New(rand.NewPCG(1, 2))
	n := 30000
	if testing.Short() {
		n = 5000
	}
	found := 0
	for i := 0; i < n; i++ {
		text := randomText(rng)
		fast, full := p.find(text, true), p.find(text, false)
		if !reflect.DeepEqual(fast, full) {
			t.Fatalf("%q:\nwith near checks %v\nwithout %v", text, fast, full)
		}
		if len(full) > 0 {
			found++
		}
	}
	if found < n/20 {
		t.Errorf("only %d of %d random texts held a secret: the test tries too little", found, n)
	}
}

// FuzzNearIsExact is TestNearIsExact on any text.
func FuzzNearIsExact(f *testing.F) {
	for _, s := range pieces {
		f.Add(s)
	}
	f.Add("api_key = " + "Qm8Zx7Lk2Wr9Tn4Vb6Yp1Hs3")
	f.Add("postgres://admin:s3cr3tpass@db:5432/x")
	f.Fuzz(func(t *testing.T, text string) {
		p := Default()
		if fast, full := p.find(text, true), p.find(text, false); !reflect.DeepEqual(fast, full) {
			t.Fatalf("%q:\nwith near checks %v\nwithout %v", text, fast, full)
		}
	})
}

// notes are texts like the memories agents write: the rules' keywords in
// prose, code and URLs, and no secret.
func notes(n int) []string {
	rng := rand.New(rand.NewPCG(3, 4))
	lines := []string{
		"The API returns 429 when the token bucket is empty; back off and retry with the same key.",
		"Pass the auth header through the proxy; see https://docs.example.com/api/v2/auth for the access rules.",
		"Store the secret in the vault, never in the repo: the deploy key is read at start-up.",
		"`config.apiKey` comes from the environment; the password field of the form is validated on blur.",
		"Use the bearer scheme for service calls and rotate credentials every 90 days.",
		"map[key]value lookups dominate the profile; the cache key is the task id plus the disk name.",
		"key: the bullet id; value: its counters. The access log shows the token refresh at 03:00.",
		"Run `go test ./...` before pushing; the CI job uses the npm registry and the Go module proxy.",
	}
	out := make([]string, n)
	for i := range out {
		var b strings.Builder
		for k := 3 + rng.IntN(6); k > 0; k-- {
			b.WriteString(lines[rng.IntN(len(lines))])
			b.WriteByte('\n')
		}
		out[i] = b.String()
	}
	return out
}

// BenchmarkFindNotes times Find over notes that hold keywords and no
// secret, with the near checks and with the patterns run on every text
// that holds a keyword.
func BenchmarkFindNotes(b *testing.B) {
	texts := notes(1000)
	bytes := 0
	for _, t := range texts {
		bytes += len(t)
	}
	p := Default()
	for _, c := range []struct {
		name string
		near bool
	}{{"near", true}, {"patterns", false}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(bytes))
			for b.Loop() {
				for _, t := range texts {
					if len(p.find(t, c.near)) > 0 {
						b.Fatal("a note holds a secret")
					}
				}
			}
		})
	}
}
