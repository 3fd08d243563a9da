package storesync

import (
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing/transport/http"
)

func TestRedactHidesPasswords(t *testing.T) {
	for in, want := range map[string]string{
		"https://agent:s3cret-token@git.example.com/team/store.git": "https://agent:xxxxx@git.example.com/team/store.git",
		"https://agent@git.example.com/team/store.git":              "https://agent@git.example.com/team/store.git",
		"git@github.com:team/store.git":                             "git@github.com:team/store.git",
		"../remote.git":                                             "../remote.git",
	} {
		if got := Redact(in); got != want {
			t.Errorf("Redact(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestAuthForURL(t *testing.T) {
	a, err := authFor([]string{"https://agent:s3cret-token@git.example.com/team/store.git"})
	if err != nil {
		t.Fatal(err)
	}
	if b, ok := a.(*http.BasicAuth); !ok || b.Username != "agent" || b.Password != "s3cret-token" {
		t.Errorf("https URL with a user gives %#v", a)
	}
	for _, u := range []string{"../remote.git", "/srv/git/store.git", "file:///srv/git/store.git", "https://git.example.com/team/store.git"} {
		if a, err := authFor([]string{u}); err != nil || a != nil {
			t.Errorf("%s: %v, %v; want no credentials", u, a, err)
		}
	}
	t.Setenv("SSH_AUTH_SOCK", "")
	t.Setenv("HOME", t.TempDir())
	_, err = authFor([]string{"git@git.example.com:team/store.git"})
	if err == nil || !strings.Contains(err.Error(), "no ssh credentials") {
		t.Errorf("ssh without an agent or a key: %v", err)
	}
}
