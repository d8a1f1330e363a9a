/**
 * One test file per operation: every operationId of the served document has
 * test/routes/<resource>/<operationId>.test.ts — resource being the first path segment after
 * /api/v1, or `meta` for operations tagged Meta — with the describe blocks "happy", "error" and
 * "security". Tests in workerd cannot read the file system: vitest.config.ts lists the files
 * under test/routes and the describe names in each when it loads (`ROUTE_TEST_FILES`).
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { api, json } from "../support/api";

declare global {
  namespace Cloudflare {
    interface Env {
      /** Path under test/routes → names of the describe blocks in that file. */
      ROUTE_TEST_FILES: Record<string, string[]>;
    }
  }
}

type Operation = { operationId?: string; tags?: string[] };

const methods = ["get", "put", "post", "delete", "patch", "options", "head", "trace"];
const blocks = ["happy", "error", "security"];

/** `<resource>/<operationId>.test.ts` for every operation of the served document. */
async function expectedFiles(): Promise<string[]> {
  const res = await api("GET", "/openapi.json");
  expect(res.status).toBe(200);
  const doc = (await json(res)) as { paths: Record<string, Record<string, Operation>> };
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => methods.includes(method))
      .map(([method, op]) => {
        const resource = op.tags?.includes("Meta") ? "meta" : path.split("/")[1];
        return `${resource}/${op.operationId ?? `<no operationId on ${method} ${path}>`}.test.ts`;
      }),
  );
}

describe("one test file per operation", () => {
  it("every operation of the served document has its file, with happy, error and security blocks", async () => {
    const files = env.ROUTE_TEST_FILES;
    const expected = await expectedFiles();
    expect(expected.length).toBeGreaterThan(0);
    expect(new Set(expected).size).toBe(expected.length);
    expect(
      expected.filter((file) => !Object.hasOwn(files, file)),
      "operations without a test file",
    ).toEqual([]);
    const missingBlocks = Object.fromEntries(
      expected
        .map((file) => [file, blocks.filter((block) => !files[file]?.includes(block))] as const)
        .filter(([, missing]) => missing.length > 0),
    );
    expect(missingBlocks, "files without a happy, error or security block").toEqual({});
  });

  it("every file in a resource folder is named after an operation of the document", async () => {
    const expected = new Set(await expectedFiles());
    const stray = Object.keys(env.ROUTE_TEST_FILES).filter((file) => file.includes("/") && !expected.has(file));
    expect(stray).toEqual([]);
  });
});
