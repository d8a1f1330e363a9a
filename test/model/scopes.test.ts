/**
 * Scopes in the model-based test: a key with a random set of scopes sends a random operation that
 * the MCP server offers as a tool, once through REST and once through MCP (`tools/call`). The
 * decision is the same on both paths: refused with 403 `insufficient_scope` naming the operation's
 * one scope exactly when the key lacks it (MCP answers the same problem as the tool's error),
 * else allowed past the check (whatever the operation then answers for made-up ids and bodies).
 */
import { env } from "cloudflare:workers";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { tools } from "../../src/mcp/tools";
import { scopes } from "../../src/types/scopes";
import { keyWith } from "../support/access";
import { api, createAccount, json } from "../support/api";
import { callTool } from "../support/mcp";

const { MODEL_RUNS, MODEL_SEED } = env as unknown as { MODEL_RUNS: string; MODEL_SEED: string };
/** Each run is three requests: far cheaper than a sequence of the catalog's model. */
const runs = Number(MODEL_RUNS);
const seed = MODEL_SEED ? Number(MODEL_SEED) : (Date.now() ^ (Math.random() * 0x7fffffff)) | 0;

type Operation = { method: string; path: string; scope: string };

/** Each tool's operation as the served document declares it: its method, path and scope. */
async function operationsOfTools(): Promise<Map<string, Operation>> {
  const document = await json(await api("GET", "/openapi.json"));
  const byId = new Map<string, Operation>();
  for (const [path, item] of Object.entries(
    document.paths as Record<string, Record<string, Record<string, unknown>>>,
  )) {
    for (const [method, operation] of Object.entries(item)) {
      const security = operation.security as { bearerAuth?: string[] }[] | undefined;
      const scope = security?.find((s) => s.bearerAuth)?.bearerAuth?.[0];
      if (scope) byId.set(operation.operationId as string, { method: method.toUpperCase(), path, scope });
    }
  }
  return byId;
}

const MADE_UP_ID = "zzz_00000000000000000000000000";

/** The scope an answer was refused for, or null when it got past the check. */
async function restRefusal(res: Response): Promise<string | null> {
  const body = await json(res);
  if (res.status !== 403) return null;
  expect(body.code).toBe("insufficient_scope");
  return body.scope as string;
}

function mcpRefusal(result: { isError?: boolean; content: { text: string }[] }): string | null {
  if (!result.isError) return null;
  const problem = JSON.parse(result.content[1]?.text ?? "{}").problem;
  return problem?.code === "insufficient_scope" ? (problem.scope as string) : null;
}

describe("model-based: a key's scopes decide alike through REST and MCP", () => {
  it(`${runs} random keys and operations`, { timeout: runs * 3_000 + 60_000 }, async () => {
    const operations = await operationsOfTools();
    console.log(`model (scopes): seed ${seed}, ${runs} runs`);
    let refused = 0;
    await fc.assert(
      fc.asyncProperty(fc.subarray([...scopes], { minLength: 1 }), fc.constantFrom(...tools), async (held, tool) => {
        const op = operations.get(tool.operationId) as Operation;
        expect(op, tool.operationId).toBeDefined();
        // A business of its own each run: keys are bounded (50 live) and rate-limited per business.
        const { apiKey } = await createAccount("Scopes model");
        const { key } = await keyWith(held, apiKey);
        const path = op.path.replaceAll(/{[^}]+}/g, MADE_UP_ID);
        const rest = await restRefusal(
          await api(op.method, path, { key, ...(op.method === "GET" || op.method === "DELETE" ? {} : { body: {} }) }),
        );
        const args = tool.idArgument ? { [tool.idArgument.name]: MADE_UP_ID } : {};
        const mcp = mcpRefusal(await callTool(key, tool.name, args));
        const expected = held.includes(op.scope as (typeof scopes)[number]) ? null : op.scope;
        expect({ rest, mcp }, `${tool.name} with ${held.join(" ")}`).toEqual({ rest: expected, mcp: expected });
        if (expected) refused++;
      }),
      { numRuns: runs, seed, endOnFailure: true },
    );
    console.log(`model (scopes): ${runs} runs, ${refused} refused on both paths`);
  });
});
