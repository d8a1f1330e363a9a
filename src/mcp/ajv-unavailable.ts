/**
 * What `ajv` and `ajv-formats` resolve to in the Worker bundle (wrangler.toml [alias]). The MCP
 * SDK's server module imports Ajv as its default JSON Schema validator, but Ajv compiles schemas
 * to JavaScript with `new Function`, which Workers refuse, and it would add about 44 KB gzip. The
 * server is given its own validator (src/mcp/server.ts), so this is never called.
 */
export default function ajvUnavailable(): never {
  throw new Error("Ajv is not available in this Worker: pass the MCP server a jsonSchemaValidator.");
}
