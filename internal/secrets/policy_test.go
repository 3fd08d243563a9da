package secrets

import (
	"strings"
	"testing"
)

// Fake secrets of real shapes (none is a live credential). Some are built
// from pieces so that the file does not itself look like a leak to other
// scanners.
var (
	awsKey     = "AKIA" + "QWJ4ZT7NRX5LBV2M"
	awsSecret  = "wJalrXUtnFEMI/K7MDENG/bPxRfiCY" + "Q8r3Zk9PLm"
	ghToken    = "ghp_" + "R8kd93LmQz7XwP2vB5nT6yH1cJ4aF0sE9gUi"
	ghPAT      = "github_pat_" + "11ABCDEFG0kq9LmZ8xW7vU6tS5rQ4pO3nM2lK1jI0hG9fE8dC7bA6zY5xW4vU3tS2rQ1pO0nM9lK8jI7hG6fE5dC4bA3"
	glToken    = "glpat-" + "x9Lk2Qw8Zr7Tn3Vb6Yp1"
	slackToken = "xoxb-" + "2837465019-4827364510293-Qm8Zx7Lk2Wr9Tn4Vb6Yp1Hs3"
	slackHook  = "https://hooks.slack.com/services/" + "T0A1B2C3D/B4E5F6G7H/Qm8Zx7Lk2Wr9Tn4Vb6Yp1Hs3J"
	stripeKey  = "sk_live_" + "51Hq8ZxLk2Wr9Tn4Vb6Yp1Hs3Jd7Fg"
	npmToken   = "npm_" + "q8Zx7Lk2Wr9Tn4Vb6Yp1Hs3Jd7Fg5Mc0Ra2U"
	openAIKey  = "sk-proj-" + "Qm8Zx7Lk2Wr9Tn4Vb6Yp1Hs3Jd7Fg5Mc0Ra2Ue"
	openAIOld  = "sk-" + "Qm8Zx7Lk2Wr9Tn4Vb6Yp1" + "T3BlbkFJ" + "Hs3Jd7Fg5Mc0Ra2Ue4Ti"
	anthKey    = "sk-ant-api03-" + "Qm8Zx7Lk2Wr9Tn4Vb6Yp1Hs3Jd7Fg5Mc0Ra2Ue4Ti-_AA"
	googleKey  = "AIza" + "SyQm8Zx7Lk2Wr9Tn4Vb6Yp1Hs3Jd7Fg5Mc0"
	jwt        = "eyJhbGciOiJIUzI1NiJ9" + ".eyJzdWIiOiIxMjM0NTY3ODkwIn0.dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
	privKey    = "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA7v1Q\nq8Zx7Lk2Wr9Tn4Vb6Yp1\n-----END RSA PRIVATE KEY-----"
)

func TestFind(t *testing.T) {
	cases := []struct {
		name, text, rule, value string // value "" = rule not found
	}{
		// true positives, one or more per rule
		{"aws access key", "use " + awsKey + " for uploads", RuleAWSAccessKey, awsKey},
		{"aws access key in env", "AWS_ACCESS_KEY_ID=" + awsKey, RuleAWSAccessKey, awsKey},
		{"aws secret key", "aws_secret_access_key = " + awsSecret, RuleAWSSecretKey, awsSecret},
		{"aws secret key json", `"SecretAccessKey": "` + awsSecret + `"`, RuleAWSSecretKey, awsSecret},
		{"github classic", "token " + ghToken, RuleGitHubToken, ghToken},
		{"github fine-grained", "clone with " + ghPAT, RuleGitHubToken, ghPAT},
		{"gitlab", "GITLAB: " + glToken, RuleGitLabToken, glToken},
		{"slack token", "bot " + slackToken, RuleSlackToken, slackToken},
		{"slack webhook", "post to " + slackHook, RuleSlackWebhook, slackHook},
		{"stripe", "charge with " + stripeKey + ".", RuleStripeKey, stripeKey},
		{"npm", "//registry.npmjs.org/:_authToken=" + npmToken, RuleNPMToken, npmToken},
		{"openai project", "OPENAI=" + openAIKey, RuleOpenAIKey, openAIKey},
		{"openai legacy", "key " + openAIOld, RuleOpenAIKey, openAIOld},
		{"anthropic", "export ANTHROPIC_API_KEY=" + anthKey, RuleAnthropicKey, anthKey},
		{"google", "maps " + googleKey, RuleGoogleAPIKey, googleKey},
		{"jwt", "Cookie: session=" + jwt, RuleJWT, jwt},
		{"private key", "key:\n" + privKey + "\nend", RulePrivateKey, privKey},
		{"private key header only", "-----BEGIN OPENSSH PRIVATE KEY-----", RulePrivateKey, "-----BEGIN OPENSSH PRIVATE KEY-----"},
		{"bearer", "Authorization: Bearer 9f8e7d6c5b4a39281706f5e4d3c2b1a0", RuleBearerToken, "9f8e7d6c5b4a39281706f5e4d3c2b1a0"},
		{"url credentials", "DATABASE_URL=postgres://app:s3cr3tPa55@db.internal:5432/app", RuleURLCredentials, "s3cr3tPa55"},
		{"password", "Log in with password=hunter2 first.", RulePasswordAssign, "hunter2"},
		{"password yaml", "db_password: 'Tr0ub4dor&3'", RulePasswordAssign, "'Tr0ub4dor&3'"},
		{"generic secret", "client_secret: 8dJ2kq9ZmX4vT7wL1pR6sN3b", RuleGenericSecret, "8dJ2kq9ZmX4vT7wL1pR6sN3b"},
		{"generic token", `API_TOKEN="f3a9c2e17b6d48059e1a2b3c4d5e6f70"`, RuleGenericSecret, "f3a9c2e17b6d48059e1a2b3c4d5e6f70"},

		// tokens glued to a word by "_" (an identifier, an env name)
		{"aws glued to underscore", "k_AKIAIOSFODNN7EXAMPLQ", RuleAWSAccessKey, "AKIAIOSFODNN7EXAMPLQ"},
		{"aws glued both sides", "KEY_" + awsKey + "_PROD", RuleAWSAccessKey, awsKey},
		{"github glued", "token_" + ghToken, RuleGitHubToken, ghToken},
		{"gitlab glued", "ci_" + glToken, RuleGitLabToken, glToken},
		{"slack glued", "bot_" + slackToken, RuleSlackToken, slackToken},
		{"stripe glued", "cfg_" + stripeKey + "_x", RuleStripeKey, stripeKey},
		{"npm glued", "x_" + npmToken, RuleNPMToken, npmToken},
		{"anthropic glued", "k_" + anthKey, RuleAnthropicKey, anthKey},
		{"google glued", "maps_" + googleKey, RuleGoogleAPIKey, googleKey},
		{"jwt glued", "session_" + jwt, RuleJWT, jwt},

		// false positives: none of these is a secret
		{"aws documentation key", "AKIAIOSFODNN7EXAMPLE", RuleAWSAccessKey, ""},
		{"aws word", "AKIA is the prefix of access key ids", RuleAWSAccessKey, ""},
		{"aws inside a longer word", "X" + awsKey + "Y", RuleAWSAccessKey, ""},
		{"openai inside a word", "task-Qm8Zx7Lk2Wr9Tn4Vb6Yp1Hs3Jd7Fg5", RuleOpenAIKey, ""},
		{"stripe inside a word", "disk_test_Qm8Zx7Lk2Wr9Tn4", RuleStripeKey, ""},
		{"github prefix only", "tokens start with ghp_ and gho_", RuleGitHubToken, ""},
		{"slack prefix only", "bot tokens start with xoxb-", RuleSlackToken, ""},
		{"stripe test word", "sk_live_ keys are secret", RuleStripeKey, ""},
		{"openai word", "sk-learn is not a key", RuleOpenAIKey, ""},
		{"private key word", "never commit a private key", RulePrivateKey, ""},
		{"public key block", "-----BEGIN PUBLIC KEY-----", RulePrivateKey, ""},
		{"bearer word", "send a Bearer token in the Authorization header", RuleBearerToken, ""},
		{"url without password", "https://user@example.com/x", RuleURLCredentials, ""},
		{"url placeholder", "postgres://user:${PASSWORD}@db/app", RuleURLCredentials, ""},
		{"token identifier", "token=access_token", RuleGenericSecret, ""},
		{"token identifier pw", "token=access_token", RulePasswordAssign, ""},
		{"password variable", "password=os.Getenv", RulePasswordAssign, ""},
		{"password placeholder", "password: changeme", RulePasswordAssign, ""},
		{"password template", `password: "${DB_PASSWORD}"`, RulePasswordAssign, ""},
		{"password mask", "password=********", RulePasswordAssign, ""},
		{"password words", "the password: must be rotated", RulePasswordAssign, ""},
		{"secret low entropy", "secret=aaaaaaaaaaaaaaaa1", RuleGenericSecret, ""},
		{"secret short", "secret=abc123", RuleGenericSecret, ""},
		{"api version", "api_version: 2024-10-21", RuleGenericSecret, ""},
		{"public key name", "public_key: 8dJ2kq9ZmX4vT7wL1pR6sN3b", RuleGenericSecret, ""},
		{"token count", "tokens: 128000", RuleGenericSecret, ""},
		{"key letters", "primary key: customer_identifier_value", RuleGenericSecret, ""},
		{"redacted", "password=[REDACTED:password-assignment]", RulePasswordAssign, ""},
		{"allow marker", "aws " + awsKey + " # " + AllowMarker, RuleAWSAccessKey, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var got []string
			for _, f := range Default().Find(c.text) {
				if f.Rule == c.rule {
					got = append(got, c.text[f.Start:f.End])
				}
			}
			switch {
			case c.value == "" && len(got) > 0:
				t.Errorf("%q: %s found %q, want nothing", c.text, c.rule, got)
			case c.value != "" && (len(got) != 1 || got[0] != c.value):
				t.Errorf("%q: %s found %q, want %q (all: %v)", c.text, c.rule, got, c.value, Default().Find(c.text))
			}
		})
	}
}

func TestFindLineAndOrder(t *testing.T) {
	text := "first line\nkey " + ghToken + "\nthen " + awsKey + " and " + stripeKey + "\n"
	fs := Default().Find(text)
	if len(fs) != 3 {
		t.Fatalf("got %v", fs)
	}
	want := []struct {
		rule string
		line int
	}{{RuleGitHubToken, 2}, {RuleAWSAccessKey, 3}, {RuleStripeKey, 3}}
	for i, w := range want {
		if fs[i].Rule != w.rule || fs[i].Line != w.line {
			t.Errorf("finding %d: %v, want %s at line %d", i, fs[i], w.rule, w.line)
		}
	}
	if fs[0].Column != 5 {
		t.Errorf("column %d, want 5", fs[0].Column)
	}
	// A finding never prints the secret.
	for _, f := range fs {
		if s := f.String(); strings.Contains(s, ghToken) || strings.Contains(s, awsKey) {
			t.Errorf("finding prints its secret: %s", s)
		}
	}
}

func TestGluedTokensEach(t *testing.T) {
	// Two tokens joined by "_" are two findings, as two joined by a space.
	for _, text := range []string{"a_" + awsKey + "_" + awsKey, awsKey + " " + awsKey} {
		if fs := Default().Find(text); len(fs) != 2 || fs[1].Start != len(text)-len(awsKey) {
			t.Errorf("%q: got %v", text, fs)
		}
	}
}

func TestSpecificRuleWins(t *testing.T) {
	// The value is both an AWS key and a generic assignment: the specific
	// rule names it, once.
	fs := Default().Find("aws_access_key_id=" + awsKey)
	if len(fs) != 1 || fs[0].Rule != RuleAWSAccessKey {
		t.Errorf("got %v", fs)
	}
	fs = Default().Find("ANTHROPIC_API_KEY=" + anthKey)
	if len(fs) != 1 || fs[0].Rule != RuleAnthropicKey {
		t.Errorf("got %v", fs)
	}
}

func TestRedact(t *testing.T) {
	in := "deploy with " + awsKey + "\nand password=hunter2\n" + privKey + "\ndone"
	out, fs := Default().Redact(in)
	want := "deploy with [REDACTED:aws-access-key]\nand password=[REDACTED:password-assignment]\n[REDACTED:private-key]\ndone"
	if out != want || len(fs) != 3 {
		t.Errorf("got %q (%v)\nwant %q", out, fs, want)
	}
	if again, fs := Default().Redact(out); again != out || len(fs) != 0 {
		t.Errorf("redacting twice changed %q to %q (%v)", out, again, fs)
	}
	if out, fs := Default().Redact("nothing here"); out != "nothing here" || fs != nil {
		t.Errorf("got %q %v", out, fs)
	}
}

func TestAllowList(t *testing.T) {
	p, err := New([]string{`^AKIAQWJ4`, `hunter\d`})
	if err != nil {
		t.Fatal(err)
	}
	if fs := p.Find("key " + awsKey + " password=hunter2 " + ghToken); len(fs) != 1 || fs[0].Rule != RuleGitHubToken {
		t.Errorf("got %v", fs)
	}
	if _, err := New([]string{"("}); err == nil || !strings.Contains(err.Error(), "secrets.allow[0]") {
		t.Errorf("bad regexp: %v", err)
	}
	// The marker allows its own line only.
	fs := Default().Find(awsKey + " " + AllowMarker + "\n" + awsKey)
	if len(fs) != 1 || fs[0].Line != 2 {
		t.Errorf("got %v", fs)
	}
}

func TestCheckNamesField(t *testing.T) {
	err := Default().Check(append([]Field{{"brief", "fine"}}, Strings("tags", []string{"ok", stripeKey})...)...)
	if err == nil || err.Field != "tags[1]" || err.Rule != RuleStripeKey {
		t.Fatalf("got %v", err)
	}
	if strings.Contains(err.Error(), stripeKey) {
		t.Errorf("error prints the secret: %v", err)
	}
	if err := Default().Check(Field{"brief", "fine"}); err != nil {
		t.Errorf("got %v", err)
	}
}

func TestEntropy(t *testing.T) {
	if e := entropy("aaaa"); e != 0 {
		t.Errorf("aaaa: %v", e)
	}
	if e := entropy("abcd"); e != 2 {
		t.Errorf("abcd: %v", e)
	}
}
