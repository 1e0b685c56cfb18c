// Drive a stdio MCP server with the TypeScript SDK's own client and print what it saw.
//
// usage: node sdk_calls.mjs '<server JSON: {"command", "args", "env"}>' < calls.json
// calls.json is a JSON array of {"name", "arguments"}. The client lists the tools first,
// as real clients do, so callTool checks every structured result against the tool's
// outputSchema exactly as the SDK does for its users. Prints one JSON object:
// {"serverInfo", "capabilities", "tools", "calls": [{"ok", "result"} | {"ok": false, "code", "message"}]}.
import { readFileSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const server = JSON.parse(process.argv[2]);
const calls = JSON.parse(readFileSync(0, "utf8"));

const transport = new StdioClientTransport({
  command: server.command,
  args: server.args ?? [],
  env: { ...process.env, ...(server.env ?? {}) },
  stderr: "inherit",
});
const client = new Client({ name: "lexicon-tests", version: "1.0.0" });
await client.connect(transport);

const listed = await client.listTools();
const out = {
  serverInfo: client.getServerVersion(),
  capabilities: client.getServerCapabilities(),
  tools: listed.tools.map((tool) => tool.name),
  calls: [],
};
for (const call of calls) {
  try {
    const result = await client.callTool({ name: call.name, arguments: call.arguments ?? {} });
    out.calls.push({ ok: true, result });
  } catch (error) {
    out.calls.push({ ok: false, code: error.code ?? null, message: String(error.message ?? error) });
  }
}
await client.close();
process.stdout.write(JSON.stringify(out));
