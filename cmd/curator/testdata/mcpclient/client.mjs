// A client of `curator mcp` written with the MCP TypeScript SDK, as agent
// hosts other than curator's own tests use it.
//
//	node client.mjs <store folder>
//
// starts `curator mcp` (curator from PATH) in the folder, calls the memory
// tools the way the memory-curate procedure does, then a playbook's
// reflection, its curation answer and block, and puts the folder's shop
// pipeline on hold and back, and prints one JSON
// summary of what the server answered on stdout. Checking the summary is
// the caller's job; the exit status is not 0 only when the client could not
// talk to the server at all.
import { readFileSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport, getDefaultEnvironment } from "@modelcontextprotocol/sdk/client/stdio.js";

const dir = process.argv[2];
if (!dir) {
  console.error("usage: node client.mjs <store folder>");
  process.exit(2);
}
// Nothing here may wait forever.
setTimeout(() => {
  console.error("client.mjs: no summary within 60 s");
  process.exit(3);
}, 60_000).unref();

const sdk = JSON.parse(readFileSync(new URL("./node_modules/@modelcontextprotocol/sdk/package.json", import.meta.url))).version;

// A host passes the SDK's default environment and the variables its
// configuration names; here those are git's identity variables.
const env = getDefaultEnvironment();
for (const [k, v] of Object.entries(process.env)) {
  if (k.startsWith("GIT_") || k === "NO_COLOR") env[k] = v;
}
const transport = new StdioClientTransport({ command: "curator", args: ["mcp"], cwd: dir, env, stderr: "inherit" });
const client = new Client({ name: "curator-node-test", version: "1.0.0" });
await client.connect(transport);

const summary = { sdk, server: client.getServerVersion(), calls: 0 };

// call returns a tool's structured result, or {is_error, message} for a
// tool error.
async function call(name, args) {
  summary.calls++;
  const r = await client.callTool({ name, arguments: args });
  if (r.isError) {
    return { is_error: true, message: r.content.filter((c) => c.type === "text").map((c) => c.text).join("") };
  }
  return r.structuredContent;
}

// The memory tools of the procedure.
const { tools } = await client.listTools();
summary.tools = tools.map((t) => t.name).sort();
const usedTools = ["list_entries", "get_memory", "add_memory", "update_long_term", "delete_memory", "restore_memory", "promote_to_rule", "curate_memory",
  "add_reflection", "apply_curation", "inject_playbook", "pipeline_hold", "pipeline_continue",
  "search_memory", "close_observation", "record_usage"];
summary.missing_tools = usedTools.filter((n) => !summary.tools.includes(n));

// Five facts, ten minutes apart, in the window 09:00–10:00.
summary.added = [];
for (let i = 0; i < 5; i++) {
  const r = await call("add_memory", {
    id: `node-${i}`,
    type: "fact",
    brief: `fact ${i} written by a node client`,
    body: `Body of fact ${i}.`,
    author: "node-agent",
    tags: ["node", "mcp"],
    content_confidence: 4,
    importance_factors: { proximity: 0.5, surprisal: 0.4, entity_priority: 0.3, unambiguity: 0.9 },
    ingestion_time: `2026-11-29T09:${i}5:00Z`,
  });
  summary.added.push({ id: r.id, path: r.path, has_commit: typeof r.commit === "string" && r.commit.length > 0, error: r.message });
}

// The window in pages of two, the later pages from the first page's snapshot.
const window = { status: "inbox", ingestion_time_start: "2026-11-29T09:00:00Z", ingestion_time_end: "2026-11-29T10:00:00Z" };
summary.pages = [];
let snapshot;
for (let offset = 0; ; offset += 2) {
  const page = await call("list_entries", { ...window, limit: 2, offset, ...(snapshot ? { snapshot } : {}) });
  if (page.is_error) {
    summary.pages.push(page);
    break;
  }
  snapshot = page.snapshot;
  summary.pages.push({
    offset: page.offset,
    limit: page.limit,
    total: page.total,
    snapshot: page.snapshot,
    ids: page.entries.map((e) => e.id),
    bodies: page.entries.filter((e) => "body" in e).length,
  });
  if (page.entries.length === 0 || offset + 2 >= page.total) break;
}

// Promote one, trash another, as the procedure's decisions do.
summary.updated = await call("update_long_term", { id: "node-1", patch: { maturity: "confirmed", importance_factors: { proximity: 0.95 } } });
summary.confirmed = await call("get_memory", { id: "node-1" });
summary.deleted = await call("delete_memory", { id: "node-2", reason: "duplicate of node-0" });

// The confirmed memory is found by search; a reviewer closes its
// observation window by judgement.
const found = await call("search_memory", { query: "fact 1 written by a node client" });
summary.search = found.is_error ? found : { ids: found.results.map((r) => r.id), status: found.status };
const closed = await call("close_observation", { id: "node-1", outcome: "held", note: "checked by the node client" });
summary.closed = closed.is_error ? closed : { id: closed.id, outcome: closed.outcome, note: closed.note, commit: closed.commit };

// Bad input is a tool error, and the server answers the next call.
summary.invalid = await call("list_entries", { status: "nowhere" });
const after = await call("list_entries", window);
summary.inbox_after = { total: after.total, ids: (after.entries ?? []).map((e) => e.id) };

// An agent without a shell: a reflection, the answer to its curation
// prompt applied, the playbook block written; the pipeline put on hold and
// taken off it.
const reflection = await call("add_reflection", {
  reflection: JSON.stringify({ id: "refl-node", agent: "node-agent", lessons: [{ content: "Run the node client after every change to the MCP tools.", category: "verification", confidence: 0.9 }] }),
});
const answer = {
  curation_actions: [{ action: "new_bullet", category: "verification", reflection_id: "refl-node", reasoning: "no bullet is close",
    merged_content: "Run the node client after every change to the MCP tools." }],
};
const applied = await call("apply_curation", { answer: JSON.stringify(answer) });
const injected = await call("inject_playbook", { file: "AGENTS.md", top: 5 });
const bullet = applied.is_error ? "" : applied.actions[0].bullet_id;
const used = await call("record_usage", { ids: [bullet], helpful: true });
summary.playbook = {
  reflection: reflection.id ?? reflection.message,
  applied: applied.is_error ? applied : { commit: applied.commit, merged: applied.reflections_merged, actions: applied.actions.map((a) => `${a.merge_type} ${a.bullet_id}`) },
  injected,
  used: used.is_error ? used : { commit: used.commit, bullets: used.bullets.map((b) => `${b.id} helpful ${b.helpful_count}`) },
};
const held = await call("pipeline_hold", { project: "shop", reason: "waiting for the node client" });
const resumed = await call("pipeline_continue", { project: "shop" });
summary.pipeline = [held, resumed].map((r) => (r.is_error ? r : { mode: r.mode, status: r.state.overall_status, commit: r.commit }));

await client.close();
process.stdout.write(JSON.stringify(summary) + "\n");
