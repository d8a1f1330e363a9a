/** `tools/list`: every tool with its JSON Schemas, read from the served OpenAPI document. */
import type { Tool as McpTool } from "@modelcontextprotocol/sdk/types.js";
import type { Rest } from "./rest";
import { inputSchemaOf, type OpenApiDocument, outputSchemaOf } from "./schemas";
import { tools } from "./tools";

/** The tools as `tools/list` lists them, built once per isolate from the served OpenAPI document. */
let listed: Promise<McpTool[]> | undefined;

async function toolList(rest: Rest): Promise<McpTool[]> {
  const answer = await rest({ method: "GET", path: "/openapi.json" });
  if (answer.status !== 200) throw new Error(`GET /openapi.json answered ${answer.status}.`);
  const doc = answer.body as OpenApiDocument;
  return tools.map((tool) => ({
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: inputSchemaOf(doc, tool.operationId, tool.idArgument) as McpTool["inputSchema"],
    outputSchema: (tool.outputSchema?.(doc) ?? outputSchemaOf(doc, tool.operationId)) as McpTool["outputSchema"],
    annotations: {
      title: tool.title,
      readOnlyHint: tool.readOnly,
      destructiveHint: tool.name === "cancel_booking",
      idempotentHint: tool.idempotent,
      openWorldHint: false,
    },
  }));
}

/** The tools as `tools/list` answers them. */
export function listTools(rest: Rest): Promise<McpTool[]> {
  listed ??= toolList(rest).catch((error: unknown) => {
    listed = undefined;
    throw error;
  });
  return listed;
}
