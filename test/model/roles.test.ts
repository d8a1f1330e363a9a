/**
 * Roles in the model-based test: a signed-in member of a random role (owner, front desk, or staff
 * who is one of the business's two people) takes a random action that the API and the office both
 * offer — cancel, no-show, completed, notes, move, book by phone, edit or erase a customer, set a
 * person's hours or a day off, end a person's calendar feed, invite a member — on a record of
 * their own person or of the other (roles.ts). It is sent through every path that offers it, each on a record made alike (or on
 * the same person, put back between paths): the API with the session cookie, the office's form
 * post, and — for the actions the MCP server has a tool for (cancel, move, book) — `tools/call`
 * with the same cookie, since the MCP endpoint takes a member's session like every API route.
 * Every path decides the same, and as docs/members.md's table says: done, refused for the role
 * (API 403, the office's 403 page, the tool's 403 problem), or not the member's to see (404 on
 * each). A refusal changes nothing the owner's key reads back; what is done changes it.
 */
import { env } from "cloudflare:workers";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { problem } from "../support/api";
import { PROTOCOL_VERSION, request } from "../support/mcp";
import { asMember } from "../support/members";
import {
  type Action,
  actions,
  apiDecision,
  type Decision,
  expected,
  mcpDecision,
  officeDecision,
  onKeyOf,
  type Path,
  type Role,
  rolesWorld,
  type World,
} from "./roles";

const { MODEL_RUNS, MODEL_SEED } = env as unknown as { MODEL_RUNS: string; MODEL_SEED: string };
/**
 * Each run is some fifteen requests (records made, the action on each path, reads back), five
 * times the scopes model's three: a fifth of its runs. At most 300: each run books on a day of its
 * own, within the services' year ahead.
 */
const runs = Math.min(300, Math.max(10, Math.round(Number(MODEL_RUNS) / 5)));
const seed = MODEL_SEED ? Number(MODEL_SEED) : (Date.now() ^ (Math.random() * 0x7fffffff)) | 0;

/** One business for the file: its members sign in once (sign-ins are bounded per client address). */
let shared: Promise<World> | undefined;
const world = () => {
  shared ??= rolesWorld();
  return shared;
};

/** One path's decision, and the record as the owner's key read it before and after. */
async function onePath(
  w: World,
  action: Action,
  path: Path,
  cookie: string,
  providerId: string,
  day: number,
  slot: number,
) {
  const target = await action.prepare(w, providerId, day, slot);
  const before = await action.read(w, target);
  let decision: Decision;
  if (path === "api") decision = await apiDecision(await action.api(w, cookie, target));
  else if (path === "office") decision = await officeDecision(await action.office(w, cookie, target));
  else {
    const call = action.mcp?.(w, target) as { tool: string; args: Record<string, unknown> };
    decision = await mcpDecision(cookie, call.tool, call.args);
  }
  const after = await action.read(w, target);
  await action.restore?.(w, target);
  return { decision, changed: JSON.stringify(before) !== JSON.stringify(after), after };
}

describe("a member's session on MCP", () => {
  // A tool's REST call is sent for the member who called the tool: a write (a body) as well as a read.
  it("an owner books, moves and cancels through the tools as through the API", async () => {
    const w = await world();
    const providerId = w.providerIds[0] as string;
    for (const name of ["book by phone", "move", "cancel"]) {
      const action = actions.find((a) => a.name === name) as Action;
      expect((await onePath(w, action, "mcp", w.members.owner, providerId, 1, 2)).decision, name).toBe("done");
    }
  });

  it("a tool call with the session from another site is a 403 cross_site, and the booking stays", async () => {
    const w = await world();
    const cancel = actions.find((a) => a.name === "cancel") as Action;
    const target = await cancel.prepare(w, w.providerIds[0] as string, 1, 0);
    const call = request("tools/call", { name: "cancel_booking", arguments: { bookingId: target.id } });
    const headers = {
      Origin: "https://elsewhere.example",
      Accept: "application/json, text/event-stream",
      "MCP-Protocol-Version": PROTOCOL_VERSION,
    };
    await problem(await asMember("POST", "/mcp", w.members.owner, call, headers), 403, "cross_site");
    expect((await cancel.read(w, target)) as { status: string }).toMatchObject({ status: "CONFIRMED" });
  });
});

describe("model-based: a member's role decides alike through the API, the office and MCP", () => {
  it(`${runs} random members, actions and records`, { timeout: runs * 6_000 + 60_000 }, async () => {
    const w = await world();
    console.log(`model (roles): seed ${seed}, ${runs} runs`);
    let day = 2;
    const tally: Record<string, number> = {};
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom<Role>("owner", "frontdesk", "staff"),
        fc.constantFrom(0, 1),
        fc.constantFrom(0, 1),
        fc.constantFrom(...actions),
        async (role, theirs, target, action) => {
          const cookie = role === "staff" ? (w.members.staff[theirs] as string) : w.members[role];
          const providerId = w.providerIds[target] as string;
          const paths: Path[] = action.mcp ? ["api", "office", "mcp"] : ["api", "office"];
          const want = expected(action, role, theirs === target);
          const today = day++;
          const on = onKeyOf(w, today);
          const label = `${role}${role === "staff" ? ` of person ${theirs}` : ""}: ${action.name} of person ${target}'s`;
          for (const [slot, path] of paths.entries()) {
            const { decision, changed, after } = await onePath(on, action, path, cookie, providerId, today, slot);
            expect({ path, decision }, label).toEqual({ path, decision: want });
            expect({ path, changed }, `${label}: ${JSON.stringify(after)}`).toEqual({ path, changed: want === "done" });
          }
          tally[want] = (tally[want] ?? 0) + 1;
        },
      ),
      { numRuns: runs, seed, endOnFailure: true },
    );
    console.log(`model (roles): ${runs} runs, decided alike on every path: ${JSON.stringify(tally)}`);
  });
});
