package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// readResource reads one resource's text.
func readResource(t *testing.T, cs *mcp.ClientSession, uri string) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
	if err != nil {
		return "", err
	}
	if len(res.Contents) != 1 {
		t.Fatalf("%s: %d contents", uri, len(res.Contents))
	}
	return res.Contents[0].Text, nil
}

func mustRead(t *testing.T, cs *mcp.ClientSession, uri string) string {
	t.Helper()
	text, err := readResource(t, cs, uri)
	if err != nil {
		t.Fatalf("%s: %v", uri, err)
	}
	return text
}

// wantMessage fails unless msg mentions every one of want.
func wantMessage(t *testing.T, what, msg string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(msg, w) {
			t.Errorf("%s: message %q does not mention %q", what, msg, w)
		}
	}
}

// TestMCPReflectionFormat gives reflections without an id a fresh id each,
// and tells a guessed format the field and the shape it wants.
func TestMCPReflectionFormat(t *testing.T) {
	cs := mcpSession(t, memoryStore(t))
	// Reflections without an id each get a fresh one.
	noID := "---\nagent: tester\nlessons:\n  - content: Run the tests twice when one is flaky.\n---\n"
	first := call(t, cs, "add_reflection", map[string]any{"reflection": noID})
	second := call(t, cs, "add_reflection", map[string]any{"reflection": noID})
	if a, b := first["id"].(string), second["id"].(string); !strings.HasPrefix(a, "refl-") || !strings.HasPrefix(b, "refl-") || a == b {
		t.Fatalf("add_reflection without an id: %v, then %v", first, second)
	}
	// A guessed format is told the field and the shape it wants.
	wantMessage(t, "add_reflection (helpful_bullets)", callErr(t, cs, "add_reflection", map[string]any{
		"reflection": "---\nhelpful_bullets: STRAT-001\nlessons:\n  - content: x\n---\n"}),
		"helpful_bullets: want a list of bullet ids, got a string")
}

// TestMCPPlaybookTools stores reflections, curates them (a dry run first),
// queries the playbook and reads its records as resources and prompt.
func TestMCPPlaybookTools(t *testing.T) {
	dir := memoryStore(t)
	cs := mcpSession(t, dir)
	names := toolNames(t, cs)
	for _, want := range []string{"query_playbook", "add_reflection", "curate_playbook", "playbook_stats", "pipeline_status", "pipeline_transition", "validate_artifacts"} {
		if !names[want] {
			t.Errorf("no tool %s", want)
		}
	}
	pending := filepath.Join(dir, ".curator/context/reflections/pending")

	// add_reflection: markdown and JSON, each one commit.
	before := commits(t, dir)
	res := call(t, cs, "add_reflection", map[string]any{"reflection": string(scriptFile(t, "context_curate.txtar", "pagination.md"))})
	if res["id"] != "refl-pagination" || res["commit"] == "" || res["lessons"].(float64) != 3 {
		t.Fatalf("add_reflection: %v", res)
	}
	res = call(t, cs, "add_reflection", map[string]any{"reflection": string(scriptFile(t, "context_curate.txtar", "verification.json")), "format": "json"})
	if res["id"] != "refl-verify" || res["path"] != "context/reflections/pending/refl-verify.json" {
		t.Fatalf("add_reflection (json): %v", res)
	}
	if n := commits(t, dir); n != before+2 {
		t.Errorf("two reflections made %d commits", n-before)
	}

	// Bad reflections are tool errors; nothing is stored or committed.
	before = commits(t, dir)
	for _, c := range []struct {
		args map[string]any
		want []string
	}{
		{map[string]any{"reflection": string(scriptFile(t, "context_curate.txtar", "secret.md"))}, []string{"secret", "nothing was stored"}},
		{map[string]any{"reflection": string(scriptFile(t, "context_curate.txtar", "bad-confidence.md"))}, []string{"lessons[0].confidence: 3 is out of range"}},
		{map[string]any{"reflection": string(scriptFile(t, "context_curate.txtar", "pagination.md"))}, []string{"already exists"}},
		{map[string]any{"reflection": string(scriptFile(t, "context_curate.txtar", "later.md")), "format": "json"}, []string{"format json"}},
		{map[string]any{"reflection": string(scriptFile(t, "context_curate.txtar", "verification.json")), "format": "markdown"}, []string{"format markdown"}},
		{map[string]any{"reflection": string(scriptFile(t, "context_curate.txtar", "later.md")), "format": "yaml"}, []string{"format \"yaml\""}},
		{map[string]any{"reflection": "  "}, []string{"empty"}},
		{map[string]any{}, []string{"reflection"}},
	} {
		wantMessage(t, "add_reflection", callErr(t, cs, "add_reflection", c.args), c.want...)
	}
	if _, err := os.Stat(filepath.Join(pending, "refl-secret.md")); err == nil {
		t.Error("the reflection holding a secret was stored")
	}
	if _, err := os.Stat(filepath.Join(pending, "refl-later.md")); err == nil {
		t.Error("a reflection refused for its format was stored")
	}
	if n := commits(t, dir); n != before {
		t.Errorf("refused reflections made %d commits", n-before)
	}

	// curate_playbook is a dry run unless dry_run is false.
	dry := call(t, cs, "curate_playbook", map[string]any{})
	if dry["dry_run"] != true || dry["commit"] != "" || len(dry["reflections_merged"].([]any)) != 2 {
		t.Fatalf("curate_playbook (default): %v", dry)
	}
	if _, err := os.Stat(filepath.Join(dir, ".curator/context/bullets/strategy/STRAT-001.md")); err == nil {
		t.Fatal("the dry run wrote a bullet")
	}
	if _, err := os.Stat(filepath.Join(pending, "refl-pagination.md")); err != nil {
		t.Fatalf("the dry run moved the reflection: %v", err)
	}
	if n := commits(t, dir); n != before {
		t.Errorf("the dry run made %d commits", n-before)
	}
	for _, c := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"similarity_threshold": 0.3}, "similarity_threshold"},
		{map[string]any{"min_confidence": 2}, "min_confidence"},
		{map[string]any{"reflection_id": "refl-nowhere"}, "refl-nowhere"},
		{map[string]any{"dry_run": "no"}, "dry_run"},
	} {
		wantMessage(t, "curate_playbook", callErr(t, cs, "curate_playbook", c.args), c.want)
	}
	// config.yaml's context section applies to the thresholds not given:
	// with min_confidence 0.6 configured, the 0.55 lesson of refl-verify is
	// skipped; given as 0.5, it is not.
	cfg := filepath.Join(dir, ".curator/config.yaml")
	orig, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(orig), "min_confidence: 0.5") {
		t.Fatalf("config.yaml has no context.min_confidence:\n%s", orig)
	}
	write(t, cfg, []byte(strings.Replace(string(orig), "min_confidence: 0.5", "min_confidence: 0.6", 1)))
	if got := curatedKinds(t, call(t, cs, "curate_playbook", map[string]any{"reflection_id": "refl-verify"})); got["skip"] != 1 {
		t.Errorf("configured min_confidence 0.6: actions %v, want the lesson skipped", got)
	}
	if got := curatedKinds(t, call(t, cs, "curate_playbook", map[string]any{"reflection_id": "refl-verify", "min_confidence": 0.5})); got["skip"] != 0 {
		t.Errorf("min_confidence 0.5 given: actions %v, want no skip", got)
	}
	write(t, cfg, orig)

	rep := call(t, cs, "curate_playbook", map[string]any{"dry_run": false})
	if rep["dry_run"] != false || rep["commit"] == "" || len(rep["reflections_merged"].([]any)) != 2 {
		t.Fatalf("curate_playbook (dry_run false): %v", rep)
	}
	if n := commits(t, dir); n != before+1 {
		t.Errorf("the curation made %d commits", n-before)
	}
	if _, err := os.Stat(filepath.Join(dir, ".curator/context/bullets/strategy/STRAT-001.md")); err != nil {
		t.Fatalf("no bullet STRAT-001: %v", err)
	}

	// query_playbook and playbook_stats.
	q := call(t, cs, "query_playbook", map[string]any{"category": "strategy", "text": "pagination"})
	if bs := q["bullets"].([]any); len(bs) != 1 || bs[0].(map[string]any)["id"] != "STRAT-001" {
		t.Fatalf("query_playbook: %v", q)
	}
	if bs := call(t, cs, "query_playbook", map[string]any{"tags": []string{"pagination", "api"}})["bullets"].([]any); len(bs) != 1 {
		t.Errorf("query_playbook by tags: %v", bs)
	}
	if bs := call(t, cs, "query_playbook", map[string]any{"tags": []string{"nothing-has-this"}})["bullets"].([]any); len(bs) != 0 {
		t.Errorf("query_playbook by a tag no bullet has: %v", bs)
	}
	if bs := call(t, cs, "query_playbook", map[string]any{"limit": 1})["bullets"].([]any); len(bs) != 1 {
		t.Errorf("query_playbook limit 1: %d bullets", len(bs))
	}
	wantMessage(t, "query_playbook", callErr(t, cs, "query_playbook", map[string]any{"limit": -1}), "limit")
	wantMessage(t, "query_playbook", callErr(t, cs, "query_playbook", map[string]any{"tags": "api"}), "tags")
	st := call(t, cs, "playbook_stats", nil)
	if st["stats"].(map[string]any)["active"].(float64) != 3 || st["pending_reflections"].(float64) != 0 {
		t.Fatalf("playbook_stats: %v", st)
	}

	// The prompt for a pending reflection, as `context prompt` prints it.
	call(t, cs, "add_reflection", map[string]any{"reflection": string(scriptFile(t, "context_curate.txtar", "later.md"))})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	pr, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "curate_reflection", Arguments: map[string]string{"reflection_id": "refl-later"}})
	if err != nil {
		t.Fatal(err)
	}
	want := curator(t, dir, "context", "prompt", "--reflection-id", "refl-later")
	if len(pr.Messages) != 1 || pr.Messages[0].Role != "user" || pr.Messages[0].Content.(*mcp.TextContent).Text != want {
		t.Fatalf("curate_reflection: %+v\nwant the text of `context prompt`:\n%s", pr.Messages, want)
	}
	if !strings.Contains(want, "calendars and alarms") {
		t.Errorf("the prompt does not hold the reflection:\n%s", want)
	}
	if pr, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "curate_reflection"}); err != nil || pr.Messages[0].Content.(*mcp.TextContent).Text != want {
		t.Errorf("curate_reflection without an id (the oldest pending): %v", err)
	}
	if _, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "curate_reflection", Arguments: map[string]string{"reflection_id": "refl-pagination"}}); err == nil || !strings.Contains(err.Error(), "no pending reflection") {
		t.Errorf("curate_reflection for a merged reflection: %v", err)
	}

	// Resources: a bullet and a memory, read fresh each time.
	bulletFile := filepath.Join(dir, ".curator/context/bullets/strategy/STRAT-001.md")
	text := mustRead(t, cs, "curator://bullet/STRAT-001")
	if disk, _ := os.ReadFile(bulletFile); text != string(disk) || !strings.Contains(text, "page_limit") {
		t.Fatalf("curator://bullet/STRAT-001:\n%s", text)
	}
	write(t, bulletFile, []byte(strings.Replace(text, "Always page through", "Always, always page through", 1)))
	if text := mustRead(t, cs, "curator://bullet/STRAT-001"); !strings.Contains(text, "Always, always page through") {
		t.Errorf("an edit on disk is not seen:\n%s", text)
	}
	call(t, cs, "add_memory", map[string]any{"id": "m-res", "type": "fact", "brief": "resource fact", "body": "first body"})
	memFile := filepath.Join(dir, ".curator/memory/inbox/m-res.md")
	if text := mustRead(t, cs, "curator://memory/m-res"); !strings.Contains(text, "first body") || !strings.Contains(text, "brief: resource fact") {
		t.Fatalf("curator://memory/m-res:\n%s", text)
	}
	data, _ := os.ReadFile(memFile)
	write(t, memFile, []byte(strings.Replace(string(data), "first body", "second body", 1)))
	if text := mustRead(t, cs, "curator://memory/m-res"); !strings.Contains(text, "second body") {
		t.Errorf("an edit on disk is not seen:\n%s", text)
	}
	call(t, cs, "delete_memory", map[string]any{"id": "m-res"})
	if text := mustRead(t, cs, "curator://memory/m-res"); !strings.Contains(text, "second body") {
		t.Errorf("a trashed memory:\n%s", text)
	}
	for _, uri := range []string{"curator://memory/nope", "curator://bullet/NOPE-001", "curator://memory/..%2Fconfig", "curator://memory/", "curator://nothing/x"} {
		if _, err := readResource(t, cs, uri); err == nil || !strings.Contains(err.Error(), "not found") {
			t.Errorf("%s: %v, want not found", uri, err)
		}
	}
	if text := mustRead(t, cs, "curator://playbook/stats"); !strings.Contains(text, `"pending_reflections": 1`) {
		t.Errorf("curator://playbook/stats:\n%s", text)
	}
	tmpls, err := cs.ListResourceTemplates(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, tm := range tmpls.ResourceTemplates {
		got[tm.URITemplate] = tm.MIMEType
	}
	for uri, mime := range map[string]string{"curator://memory/{id}": "text/markdown", "curator://bullet/{id}": "text/markdown", "curator://pipeline/{project}/state": "application/json"} {
		if got[uri] != mime {
			t.Errorf("resource template %s: %q, want %s (templates %v)", uri, got[uri], mime, got)
		}
	}
	prompts, err := cs.ListPrompts(ctx, nil)
	if err != nil || len(prompts.Prompts) != 1 || prompts.Prompts[0].Name != "curate_reflection" || prompts.Prompts[0].Arguments[0].Name != "reflection_id" {
		t.Errorf("prompts: %v %v", prompts, err)
	}
}

// curatedKinds counts a curation report's actions by type.
func curatedKinds(t *testing.T, rep map[string]any) map[string]int {
	t.Helper()
	out := map[string]int{}
	for _, a := range rep["actions"].([]any) {
		out[a.(map[string]any)["merge_type"].(string)]++
	}
	return out
}

// TestMCPPipelineTools hands the shop pipeline over, is refused a blocked
// handoff (the blocked state still recorded) and reads the state as a
// resource.
func TestMCPPipelineTools(t *testing.T) {
	dir, _ := pipelineStore(t)
	cs := mcpSession(t, dir)
	stateFile := filepath.Join(dir, ".curator/pipelines/pipeline-state-shop.json")

	st := call(t, cs, "pipeline_status", map[string]any{"project": "shop"})
	cur := st["state"].(map[string]any)["current_phase"].(map[string]any)
	if st["mode"] != "status" || cur["phase_name"] != "implementer" || cur["step_number"].(float64) != 1 {
		t.Fatalf("pipeline_status: %v", st)
	}
	v := call(t, cs, "validate_artifacts", map[string]any{"project": "shop", "phase": "spec-writer"})
	if checks := v["checks"].([]any); len(checks) != 1 || checks[0].(map[string]any)["ok"] != true {
		t.Fatalf("validate_artifacts: %v", v)
	}

	before := commits(t, dir)
	tr := call(t, cs, "pipeline_transition", map[string]any{"project": "shop", "pipeline": "sdd", "from": "spec-writer", "to": "implementer", "step": 2})
	if tr["commit"] == "" || !strings.HasSuffix(tr["brief"].(string), "context-briefs/shop/2-implementer-step-2.md") {
		t.Fatalf("pipeline_transition: %v", tr)
	}
	if n := commits(t, dir); n != before+1 {
		t.Errorf("the transition made %d commits", n-before)
	}
	state := mustRead(t, cs, "curator://pipeline/shop/state")
	if disk, _ := os.ReadFile(stateFile); state != string(disk) || !strings.Contains(state, `"step_number": 2`) {
		t.Fatalf("curator://pipeline/shop/state:\n%s", state)
	}
	write(t, stateFile, []byte(strings.Replace(state, `"project_name": "shop"`, `"project_name": "shop", "note": "edited"`, 1)))
	if text := mustRead(t, cs, "curator://pipeline/shop/state"); !strings.Contains(text, `"note": "edited"`) {
		t.Errorf("an edit on disk is not seen:\n%s", text)
	}
	write(t, stateFile, []byte(state))

	// A blocked handoff is a tool error naming every missing section; the
	// blocked state is recorded all the same (one commit).
	os.MkdirAll(filepath.Join(dir, "thin"), 0o755)
	write(t, filepath.Join(dir, "thin/spec.md"), scriptFile(t, "pipeline_modes.txtar", "thin/spec.md"))
	before = commits(t, dir)
	msg := callErr(t, cs, "pipeline_transition", map[string]any{"project": "thin", "pipeline": "sdd", "from": "spec-writer", "to": "implementer",
		"project_path": filepath.Join(dir, "thin")})
	wantMessage(t, "blocked transition", msg, "blocked", `missing section "Functional Requirements" or "Requirements"`, `missing section "Success Criteria" or "Acceptance Criteria"`)
	thin, err := os.ReadFile(filepath.Join(dir, ".curator/pipelines/pipeline-state-thin.json"))
	if err != nil || !strings.Contains(string(thin), `"status": "blocked"`) {
		t.Fatalf("the blocked state is not recorded: %v\n%s", err, thin)
	}
	if n := commits(t, dir); n != before+1 {
		t.Errorf("the blocked transition made %d commits", n-before)
	}
	if _, err := os.Stat(filepath.Join(dir, ".curator/pipelines/context-briefs/thin")); err == nil {
		t.Error("a blocked transition wrote a brief")
	}
	if text := mustRead(t, cs, "curator://pipeline/thin/state"); !strings.Contains(text, `"overall_status": "blocked"`) {
		t.Errorf("curator://pipeline/thin/state:\n%s", text)
	}
	// validate_artifacts records nothing and does not claim to.
	thinBefore, _ := os.ReadFile(filepath.Join(dir, ".curator/pipelines/pipeline-state-thin.json"))
	before = commits(t, dir)
	msg = callErr(t, cs, "validate_artifacts", map[string]any{"project": "thin", "phase": "spec-writer"})
	wantMessage(t, "validate_artifacts (thin)", msg, "do not validate",
		`missing section "Functional Requirements" or "Requirements"`, `missing section "Success Criteria" or "Acceptance Criteria"`)
	for _, lie := range []string{"recorded in the state", "blocked the transition"} {
		if strings.Contains(msg, lie) {
			t.Errorf("validate_artifacts says %q: %s", lie, msg)
		}
	}
	if after, _ := os.ReadFile(filepath.Join(dir, ".curator/pipelines/pipeline-state-thin.json")); string(after) != string(thinBefore) || commits(t, dir) != before {
		t.Error("validate_artifacts changed the state or committed")
	}

	// A first transition that finds none of the phase's files (the wrong
	// folder) names the folder and project_path, and records nothing.
	empty := filepath.Join(dir, "empty")
	os.MkdirAll(empty, 0o755)
	msg = callErr(t, cs, "pipeline_transition", map[string]any{"project": "nothing", "pipeline": "sdd", "from": "spec-writer", "to": "implementer",
		"project_path": empty})
	wantMessage(t, "first transition in the wrong folder", msg, "no spec in "+empty, "nothing was recorded", "--project-path")
	for _, name := range []string{"pipeline-state-nothing.json", "dashboard-nothing.html"} {
		if _, err := os.Stat(filepath.Join(dir, ".curator/pipelines", name)); err == nil {
			t.Errorf("a first transition on nothing wrote %s", name)
		}
	}
	if n := commits(t, dir); n != before {
		t.Errorf("a first transition on nothing made %d commits", n-before)
	}

	// Bad arguments, unknown projects, pipelines and phases.
	for _, c := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"pipeline_status", map[string]any{"project": "nowhere"}, "no pipeline state"},
		{"pipeline_status", map[string]any{"project": "../evil"}, "plain file name"},
		{"pipeline_status", map[string]any{}, "project"},
		{"pipeline_transition", map[string]any{"project": "shop", "pipeline": "waterfall", "from": "a", "to": "b"}, "known: debug, full-product, sdd, ui-lifecycle"},
		{"pipeline_transition", map[string]any{"project": "shop", "pipeline": "sdd", "from": "spec-writer", "to": "tester"}, "known: spec-writer, implementer, reviewer"},
		{"pipeline_transition", map[string]any{"project": "shop", "pipeline": "sdd", "from": "spec-writer"}, "to"},
		{"pipeline_transition", map[string]any{"project": "shop", "pipeline": "sdd", "from": "spec-writer", "to": "implementer", "step": -1}, "step"},
		{"validate_artifacts", map[string]any{"project": "shop", "phase": "testing"}, "unknown phase"},
		{"validate_artifacts", map[string]any{"project": "a/b"}, "plain file name"},
	} {
		wantMessage(t, c.tool, callErr(t, cs, c.tool, c.args), c.want)
	}
	for _, uri := range []string{"curator://pipeline/nowhere/state", "curator://pipeline/shop/brief", "curator://pipeline/..%2Fconfig/state"} {
		if _, err := readResource(t, cs, uri); err == nil || !strings.Contains(err.Error(), "not found") {
			t.Errorf("%s: %v, want not found", uri, err)
		}
	}
}

// TestMCPReviewQueue lists the bullets that wait for a human, as `curator
// context review --json` does, and decides on them.
func TestMCPReviewQueue(t *testing.T) {
	dir := memoryStore(t)
	cs := mcpSession(t, dir)
	if !toolNames(t, cs)["review_queue"] {
		t.Fatal("no tool review_queue")
	}
	refl := "---\nid: refl-q\nlessons:\n  - content: Compare checksums before and after copying large archives.\n    category: check\n    confidence: 0.5\n" +
		"  - content: Back up the database before running any schema migration.\n    category: strategy\n    confidence: 0.9\n    priority: high\n---\n"
	call(t, cs, "add_reflection", map[string]any{"reflection": refl})
	call(t, cs, "curate_playbook", map[string]any{"dry_run": false})
	res := call(t, cs, "review_queue", map[string]any{})
	bullets, _ := res["bullets"].([]any)
	if len(bullets) != 2 {
		t.Fatalf("review_queue: %v", res)
	}
	first := bullets[0].(map[string]any)
	if first["id"] != "STRAT-001" || first["reasons"].([]any)[0] != "high priority 9, not approved yet" {
		t.Errorf("review_queue first: %v", first)
	}
	call(t, cs, "review_queue", map[string]any{"decision": "approve", "id": "STRAT-001"})
	if b := call(t, cs, "review_queue", map[string]any{})["bullets"].([]any); len(b) != 1 {
		t.Errorf("after approving STRAT-001: %v", b)
	}
	call(t, cs, "review_queue", map[string]any{"decision": "reject", "all": true})
	if b := call(t, cs, "review_queue", map[string]any{})["bullets"].([]any); len(b) != 0 {
		t.Errorf("after rejecting all: %v", b)
	}
	wantMessage(t, "review_queue (bad decision)", callErr(t, cs, "review_queue", map[string]any{"decision": "maybe"}), "approve or reject")
}
